"""A gym-like grid environment simulated in Python."""
import random


class GridEnv:
    def __init__(self, size=5, seed=0):
        self.size, self.rng = size, random.Random(seed)
        self.goal = (size - 1, size - 1)

    def reset(self):
        self.pos = (0, self.rng.randrange(self.size))
        return self.observe()

    def observe(self):
        x, y = self.pos
        return [x / (self.size - 1), y / (self.size - 1), float(self.pos == self.goal), 1.0]

    def step(self, action):
        dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][action]
        x = min(max(self.pos[0] + dx, 0), self.size - 1)
        y = min(max(self.pos[1] + dy, 0), self.size - 1)
        self.pos = (x, y)
        done = self.pos == self.goal
        return self.observe(), (1.0 if done else -0.02), done, {}

import random


class Chain:
    """A 6-state chain: action 1 moves right (reward at the end), action 0 resets to the start with a small reward."""

    n_states, n_actions = 6, 2

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.s = 0

    def reset(self):
        self.s = 0
        return self.s

    def step(self, a):
        if self.rng.random() < 0.1:
            a = 1 - a
        if a == 1:
            self.s = min(self.s + 1, self.n_states - 1)
            r = 1.0 if self.s == self.n_states - 1 else 0.0
        else:
            self.s, r = 0, 0.05
        done = self.s == self.n_states - 1
        return self.s, r, done

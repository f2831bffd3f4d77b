"""A 5x5 grid with a goal and a pit, NumPy-flavoured: observations float64, actions int32."""
import numpy as np

MOVES = np.array([[0, 1], [1, 0], [0, -1], [-1, 0]], dtype=np.int32)


class Grid:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.goal = np.array([4, 4])
        self.pit = np.array([2, 3])

    def reset(self):
        self.pos = np.array([0, int(self.rng.integers(0, 3))])
        return self.obs()

    def obs(self):
        o = np.zeros(25, dtype=np.float64)
        o[self.pos[0] * 5 + self.pos[1]] = 1.0
        return o

    def step(self, a):
        self.pos = np.clip(self.pos + MOVES[a], 0, 4)
        if (self.pos == self.goal).all():
            return self.obs(), np.float64(1.0), True
        if (self.pos == self.pit).all():
            return self.obs(), np.float64(-1.0), True
        return self.obs(), np.float64(-0.03), False

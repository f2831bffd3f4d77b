import numpy as np


class Runner:
    def __init__(self, agent=None, steps=12):
        self.agent = agent
        self.steps = steps
        self.rng = np.random.default_rng(0)

    def run(self):
        total = 0.0
        state = self.rng.standard_normal(4).astype(np.float32)
        for t in range(self.steps):
            total += self.agent.update(state, float(t % 2))
            state = self.rng.standard_normal(4).astype(np.float32)
        return total

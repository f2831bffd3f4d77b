# corpus: runnable
# Factories of constant look whose arguments draw from a random stream or read changing state:
# Python's random module, a NumPy Generator, a program helper that draws, `next()` on an
# iterator, an object whose __array__ advances a schedule, a list attribute a method changes.
import random

import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)
rng = np.random.default_rng(0)


def jitter():
    return [random.uniform(-1, 1) for _ in range(3)]


class Schedule:
    def __init__(self):
        self.t = 0
        self.values = [1.0, 0.5, 0.25]

    def __array__(self, dtype=None, copy=None):
        self.t += 1
        return np.array([self.t, self.t * 2.0], dtype=dtype or np.float64)

    def decay(self):
        for i in range(len(self.values)):
            self.values[i] *= 0.5


sched = Schedule()
steps = iter(range(100))
rows = []
for epoch in range(3):
    a = torch.tensor([random.random(), random.random()])
    b = torch.full((2,), random.gauss(0.0, 1.0))
    c = torch.tensor(rng.normal(size=2))
    d = torch.tensor(jitter())
    e = torch.tensor(next(steps))
    f = torch.tensor(np.array(sched))
    g = torch.tensor(sched.values)
    sched.decay()
    total = a.sum() + b.sum() + c.sum() + d.sum() + e + f.sum() + g.sum()
    rows.append(round(total.item(), 4))
print("impure", rows)

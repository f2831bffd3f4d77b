# corpus: runnable
# Dict-of-lists datasets whose columns change between batches in ways the loop does not spell:
# a helper reached through a lambda in a dict appends augmented rows, a row list changed by a
# method of a program class holding the same list, a column list swapped in place through
# `list.__setitem__` by a callback, and a dict subclass whose __getitem__ jitters the values.
import random

import torch

torch.set_num_threads(1)
random.seed(0)
data = {"x": [float(i) for i in range(8)], "y": [float(i % 2) for i in range(8)]}


def augment(col):
    col[0] = col[0] + 100.0


ACTIONS = {"aug": lambda: augment(data["x"])}


class Holder:
    def __init__(self, rows):
        self.rows = rows

    def scale(self):
        for i in range(len(self.rows)):
            self.rows[i] *= 2.0


holder = Holder(data["y"])
sums = []
for epoch in range(2):
    for s in range(0, 8, 4):
        xb = torch.tensor(data["x"][s:s + 4])
        yb = torch.tensor(data["y"][s:s + 4])
        sums.append(round((xb * 0.1 + yb).sum().item(), 4))
        ACTIONS["aug"]()
        holder.scale()
print("aside", sums)


class Jitter(dict):
    def __getitem__(self, key):
        col = super().__getitem__(key)
        return [v + random.uniform(-0.5, 0.5) for v in col]


jit = Jitter(x=[float(i) for i in range(8)])
vals = []
for epoch in range(2):
    for s in range(0, 8, 4):
        xb = torch.tensor(jit["x"][s:s + 4])
        vals.append(round(xb.sum().item(), 4))
print("jitter", vals)

# corpus: runnable
# Datasets with state behind `__getitem__`/`__len__`/`__iter__`: a random-augmenting dataset
# indexed for a reference sample each epoch, a curriculum whose length grows as it is indexed,
# a replay memory filled by iterating it. Reading an element or a length draws random numbers
# or changes the object.
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
torch.set_num_threads(1)


class Jitter(torch.utils.data.Dataset):
    def __init__(self, base):
        self.base = base

    def __len__(self):
        return len(self.base)

    def __getitem__(self, i):
        return [v + random.gauss(0.0, 0.1) for v in self.base[i]]


class Curriculum:
    def __init__(self, items):
        self.items = items
        self.active = 2

    def __len__(self):
        return self.active

    def __getitem__(self, i):
        if i == self.active - 1 and self.active < len(self.items):
            self.active += 1
        return self.items[i]


ds = Jitter([[0.5, 1.0, 1.5, 2.0], [1.0, 0.0, -1.0, 0.5]])
net = nn.Linear(4, 2)
anchors = []
for epoch in range(3):
    anchor = torch.tensor(ds[0])
    anchors.append(round(net(anchor).sum().item(), 5))
print("anchor outputs", anchors)

cur = Curriculum([0.1, 0.2, 0.3, 0.4, 0.5])
seen = []
for epoch in range(3):
    weights = torch.ones(len(cur)) / len(cur)
    for i in range(len(weights)):
        seen.append(round(cur[i] * weights[i].item(), 5))
print("curriculum", seen)


class Memory:
    def __init__(self):
        self.rows = [[0.0, 1.0]]

    def __iter__(self):
        self.rows.append([float(len(self.rows)), 1.0])
        return iter(list(self.rows))


mem = Memory()
totals = []
for epoch in range(3):
    table = torch.tensor(mem.rows)
    totals.append((tuple(table.shape), sum(r[0] for r in mem)))
print("memory", totals)

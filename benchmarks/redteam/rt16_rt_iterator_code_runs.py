# corpus: runnable
# Code that runs between iterations without appearing in the loop body: a program generator's
# body, a class's `__next__`, `map` of a program function, a Dataset's `__getitem__` and a
# `collate_fn` run by a DataLoader in the main process. Each changes state the loop's tensor
# factories read.
import torch
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(1)
SCALE = [1.0]


def batches(n):
    for i in range(n):
        SCALE[0] *= 2.0
        yield i


out = []
for b in batches(3):
    t = torch.tensor(SCALE)
    out.append(float(t))
print("generator body", out)

WIDTH = {"n": 1}


class Steps:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        WIDTH["n"] += 1
        return self.n


sizes = []
for s in Steps(3):
    z = torch.zeros(WIDTH["n"])
    sizes.append(z.numel())
print("__next__", sizes)

LR = [0.5]


def bump(i):
    LR[0] += 1.0
    return i


lrs = []
for i in map(bump, range(3)):
    lr = torch.full((2,), LR[0])
    lrs.append(lr.tolist())
print("map", lrs)

MEAN = [0.0]


class Rows(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        MEAN[0] += float(i)
        return torch.tensor([float(i)])


means = []
for batch in DataLoader(Rows(), batch_size=2):
    m = torch.tensor(MEAN[0])
    means.append(float(m))
print("getitem", means)

COUNT = {"calls": 0}


def collate(items):
    COUNT["calls"] += 1
    return torch.stack(items)


seen = []
for batch in DataLoader([torch.ones(1)] * 4, batch_size=2, collate_fn=collate):
    c = torch.tensor(COUNT["calls"])
    seen.append(int(c))
print("collate", seen)

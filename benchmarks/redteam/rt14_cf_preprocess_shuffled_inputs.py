# corpus: runnable
# NumPy preprocessing in the epoch loop over inputs changed between epochs by calls that take
# the array or list as an argument (`random.shuffle(idx)`, `np.random.default_rng(0).shuffle`,
# `arr.sort()` through an alias, `np.random.permutation` assigned back by a helper).
import random

import numpy as np
import torch

torch.set_num_threads(1)
random.seed(1)
data = np.arange(12, dtype=np.float32).reshape(6, 2)
idx = list(range(6))
firsts = []
for epoch in range(3):
    batch = np.stack([data[i] for i in idx[:2]])
    feats = (batch - batch.mean()) / (batch.std() + 1e-6)
    firsts.append(torch.from_numpy(feats).sum().item())
    random.shuffle(idx)
print("shuffled idx", [round(v, 4) for v in firsts])

rng = np.random.default_rng(0)
rows = data.copy()
tops = []
for epoch in range(3):
    top = np.ascontiguousarray(rows[:2]) * 2.0
    tops.append(float(top.sum()))
    rng.shuffle(rows)
print("rng.shuffle rows", tops)

vals = np.array([3.0, 1.0, 2.0])
view = vals
heads = []
for epoch in range(2):
    head = np.exp(vals[:1])
    heads.append(round(float(head[0]), 4))
    view.sort()
print("sorted alias", heads)


class Loader:
    def __init__(self):
        self.order = np.arange(4)

    def reshuffle(self):
        self.order = self.order[::-1].copy()


ld = Loader()
seen = []
for epoch in range(3):
    o = np.cumsum(ld.order)
    seen.append(o.tolist())
    ld.reshuffle()
print("object order", seen)

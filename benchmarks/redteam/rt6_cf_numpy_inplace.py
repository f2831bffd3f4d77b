# corpus: runnable
# NumPy arrays built in the loop and changed in place by functions and methods whose names
# do not end in `_`: `np.add.at`, `ndarray.sort()`, a Generator's `shuffle`, `random.shuffle`
# on a list, `np.copyto`, `np.put`, `np.fill_diagonal` on a running value.
import random

import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)
rng = np.random.default_rng(0)
labels = np.array([0, 1, 1, 2, 2, 2])

hist = []
for epoch in range(3):
    counts = np.zeros(3)
    np.add.at(counts, labels[: epoch + 2], 1)
    hist.append(counts.tolist())
print("add.at", hist)

tops = []
for epoch in range(3):
    scores = np.array([3.0, 1.0, 2.0])
    scores.sort()
    scores[0] = scores[0] + epoch * 10
    tops.append(scores.tolist())
print("sort", tops)

orders = []
for epoch in range(3):
    idx = np.arange(6)
    rng.shuffle(idx)
    orders.append(idx.tolist())
print("rng shuffle", orders)

orders = []
for epoch in range(3):
    perm = list(range(5))
    random.shuffle(perm)
    orders.append(perm)
print("random shuffle", orders)

snap = []
for epoch in range(3):
    buf = np.zeros(4)
    np.copyto(buf[: epoch + 1], 1.0 + epoch)
    snap.append(buf.tolist())
print("copyto", snap)

snap = []
for epoch in range(3):
    arr = np.ones(4)
    np.put(arr, [epoch], 0.0)
    snap.append(arr.tolist())
print("put", snap)

adj_sums = []
for epoch in range(3):
    adj = np.ones((3, 3))
    np.fill_diagonal(adj, epoch)
    adj_sums.append(float(adj.sum()))
print("fill_diagonal", adj_sums)

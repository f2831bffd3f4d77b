# corpus: runnable
# Per-batch rows gathered from Python lists by index where the indices are not plain ints:
# NumPy int arrays, floats from a division, negative positions, a slice, a range, a mask of
# bools; and a per-field list of lists (ragged in one row nobody picks).
import numpy as np
import torch

torch.set_num_threads(1)
np.random.seed(0)
feats = [[float(i), float(i) * 2] for i in range(10)]
feats[9] = [1.0]
labels = [i % 3 for i in range(10)]
data = {"x": feats, "y": labels}

out = []
for step in range(3):
    idx = np.random.randint(0, 9, size=3)
    x = torch.tensor([data["x"][i] for i in idx])
    y = torch.tensor([data["y"][i] for i in idx])
    out.append((x.sum().item(), y.tolist()))
print("A numpy idx", out)

out = []
for step in range(3):
    idx = [-1 - step, -2 - step]
    y = torch.tensor([data["y"][i] for i in idx])
    out.append(y.tolist())
print("B negative", out)

out = []
for step in range(2):
    idx = range(step, step + 3)
    y = torch.tensor([data["y"][i] for i in idx])
    out.append(y.tolist())
print("C range", out)

out = []
for step in range(2):
    idx = [True, False, True]
    y = torch.tensor([data["y"][i] for i in idx])
    out.append(y.tolist())
print("D bools", out)

# corpus: runnable
# `torch.tensor([v.item() for v in vals])` where the items are not 0-d tensors: NumPy scalars,
# 0-d NumPy arrays, 1-element 1-d tensors (stacked they keep a dimension), tensors kept by a
# helper that returns floats for some entries.
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
nps = [np.float32(0.5) * i for i in range(3)]
print("numpy scalars", torch.tensor([v.item() for v in nps]).tolist())
arrs = [np.array(1.5 * i) for i in range(3)]
print("0-d arrays", torch.tensor([a.item() for a in arrs]).tolist())
ones = [torch.randn(1) for _ in range(3)]
t = torch.tensor([o.item() for o in ones])
print("1-element", tuple(t.shape), [round(v, 4) for v in t.tolist()])


def score(i):
    return torch.tensor(float(i)) if i % 2 else np.float64(i)


mixed = [score(i) for i in range(4)]
print("mixed", torch.tensor([m.item() for m in mixed]).tolist())
losses = []
for step in range(3):
    losses.append(torch.randn(1, 1).mean(dim=0))
print("kept (1,)", tuple(torch.tensor([l.item() for l in losses]).shape))

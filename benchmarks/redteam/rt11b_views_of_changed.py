# corpus: runnable
# NumPy statistics of arrays sharing memory with a tensor the loop changes, reached in other
# ways: a program helper returning `.numpy()`, `.detach().cpu().numpy()`, `.T.numpy()`, a
# parameter the optimizer steps seen through `.data.numpy()`, a tensor changed by a helper in place.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def to_np(t):
    return t.numpy()


def normalise_(t):
    t.sub_(t.mean()).div_(2.0)


feats = torch.arange(12.0).reshape(4, 3)
A = to_np(feats)
B = feats.detach().cpu().numpy()
C = feats.T.numpy()
rows = []
for epoch in range(3):
    normalise_(feats)
    rows.append((round(float(np.abs(A).mean()), 4), round(float(np.abs(B).max()), 4), round(float(np.abs(C).sum()), 4)))
print("views", rows)

layer = nn.Linear(3, 2)
opt = torch.optim.SGD(layer.parameters(), lr=0.5)
W = layer.weight.data.numpy()
xs = torch.randn(4, 3)
norms = []
for x in xs:
    opt.zero_grad()
    layer(x).pow(2).sum().backward()
    opt.step()
    norms.append(round(float(np.abs(W).sum()), 4))
print("weights", norms)

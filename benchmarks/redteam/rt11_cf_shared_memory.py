# corpus: runnable
# NumPy statistics recomputed every step on arrays that share memory with tensors the loop
# changes: a layer's weight seen through `.detach().numpy()` (the optimizer steps it), an array
# changed through `torch.from_numpy(...).add_`, a feature array whose tensor twin is
# normalised in place.
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
layer = nn.Linear(3, 2)
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
W = layer.weight.detach().numpy()
xs = torch.randn(4, 3)
norms = []
for x in xs:
    opt.zero_grad()
    layer(x).pow(2).sum().backward()
    opt.step()
    norms.append(round(float(np.linalg.norm(W)), 4))
print("weight norms", norms)

counts = np.zeros(3, dtype=np.float32)
view = torch.from_numpy(counts)
totals = []
for step in range(4):
    view.add_(1.0)
    totals.append(float(np.sqrt(counts).sum()))
print("from_numpy", [round(v, 4) for v in totals])

feats = torch.arange(12.0).reshape(4, 3)
F = feats.numpy()
means = []
for epoch in range(3):
    feats.sub_(feats.mean(0)).div_(2.0)
    means.append(round(float(np.abs(F).mean()), 4))
print("normalised", means)

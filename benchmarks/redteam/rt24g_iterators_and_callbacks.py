# corpus: runnable
# Red team 24, wave 7: NumPy calls whose result is a one-shot iterator (`np.nditer`,
# `np.ndenumerate`, `np.broadcast`: a hoisted one is exhausted after the first iteration), and a
# NumPy call that runs a program function (`np.fromfunction(grid, shape)` whose function counts
# its calls and reads state the loop changes)
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
mask = np.arange(4.0).reshape(2, 2)
calls = []


def grid(i, j):
    calls.append(1)
    return i + j + len(calls)


log = []
for step in range(3):
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    walk = np.ndenumerate(mask)
    flat = np.nditer(mask)
    pairs = np.broadcast(mask, mask)
    bias = np.fromfunction(grid, (2, 2))
    total = 0.0
    for _, v in walk:
        total += float(v)
    for v in flat:
        total += float(v)
    for a, b in pairs:
        total += float(a * b)
    log.append((round(loss.item(), 5), total, float(bias.sum())))
print("iterators", log, len(calls))

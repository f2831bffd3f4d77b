# corpus: runnable
# Red team 38 probe (not blind, written after the torch.jit fix to test its trace half): a per-row score
# helper used in the training loop is also traced with torch.jit.trace for export, and the traced
# helper is then run on new data. Tracing runs the Python once: the `.item()` values and the
# `torch.tensor(list)` built from them are recorded as constants (TracerWarning), so the traced helper
# returns the example's scores whatever it is given; tensor ops in their place would be recorded live.
from typing import List

import torch
import torch.nn as nn

torch.manual_seed(2)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def row_scores(pred: torch.Tensor) -> torch.Tensor:
    vals: List[float] = []
    for i in range(pred.size(0)):
        vals.append(pred[i].pow(2).mean().item())
    return torch.tensor(vals)


net = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(5, 4, device=device)
y = torch.randn(5, 3, device=device)
for step in range(3):
    pred = net(x)
    loss = ((pred - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    s = row_scores(pred.detach())
    print(step, f"{loss.item():.10f}", [f"{v:.8f}" for v in s.tolist()])

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    exported = torch.jit.trace(row_scores, torch.ones(5, 3, device=device))
print("exported", [f"{v:.8f}" for v in exported(net(x).detach()).tolist()])

# corpus: runnable
# Red team 38, wave 2 (blind): TorchScript helpers used inside the training loop of a device program: a
# per-row absolute-error total and a per-row squared-error list built with Python numbers, each compiled
# with @torch.jit.script (public code scripts small numeric helpers for speed).
from typing import List

import torch
import torch.nn as nn

torch.manual_seed(21)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


@torch.jit.script
def row_errors(pred: torch.Tensor, target: torch.Tensor) -> float:
    total = 0.0
    for i in range(pred.size(0)):
        total += float((pred[i] - target[i]).abs().sum())
    return total


@torch.jit.script
def per_row(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    errs: List[float] = []
    for i in range(pred.size(0)):
        errs.append(float((pred[i] - target[i]).pow(2).mean()))
    return torch.tensor(errs)


@torch.jit.script
def ramp(x: torch.Tensor) -> torch.Tensor:
    pos = torch.zeros(x.size(1)).to(x.device)
    for j in range(x.size(1)):
        pos[j] = j / x.size(1)
    return x + pos


net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
X = torch.randn(40, 8, device=device)
Y = torch.randn(40, 3, device=device)
for epoch in range(3):
    err = 0.0
    for b in range(0, 40, 10):
        pred = net(ramp(X[b : b + 10]))
        loss = ((pred - Y[b : b + 10]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        err += row_errors(pred.detach(), Y[b : b + 10])
        rows = per_row(pred.detach(), Y[b : b + 10])
    print(epoch, f"{loss.item():.12f}", f"{err:.10f}", rows.dtype, f"{rows.sum().item():.10f}")

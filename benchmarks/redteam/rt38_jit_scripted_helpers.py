# corpus: runnable
# Red team 38 (blind): TorchScript helpers used by a training loop (public code scripts small numeric
# helpers for speed): a leaky activation, a per-row error sum, a position ramp and a clipped residual map,
# each compiled with @torch.jit.script at import time.
from typing import List

import torch
import torch.nn as nn

torch.manual_seed(21)
torch.set_num_threads(1)


@torch.jit.script
def leaky(x: torch.Tensor) -> torch.Tensor:
    return torch.where(x > 0, x, 0.05 * x)


@torch.jit.script
def row_errors(pred: torch.Tensor, target: torch.Tensor) -> float:
    total = 0.0
    for i in range(pred.size(0)):
        total += float((pred[i] - target[i]).abs().sum().item())
    return total


@torch.jit.script
def per_row(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    errs: List[float] = []
    for i in range(pred.size(0)):
        errs.append(float((pred[i] - target[i]).pow(2).mean().item()))
    return torch.tensor(errs)


@torch.jit.script
def ramp(x: torch.Tensor) -> torch.Tensor:
    pos = torch.arange(x.size(1)).to(x.device)
    return x + pos.float() / x.size(1)


@torch.jit.script
def clip_map(r: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(r)
    for i in range(r.size(0)):
        out[i] = r[i].clamp(-0.5, 0.5) * 2.0 + 1.0
    return out


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(8, 16)
        self.b = nn.Linear(16, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.b(leaky(self.a(ramp(x))))


net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
X = torch.randn(40, 8)
Y = torch.randn(40, 3)
for epoch in range(3):
    err = 0.0
    for b in range(0, 40, 10):
        pred = net(X[b : b + 10])
        loss = ((pred - Y[b : b + 10]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        err += row_errors(pred.detach(), Y[b : b + 10])
        rows = per_row(pred.detach(), Y[b : b + 10])
        cm = clip_map(pred.detach() - Y[b : b + 10])
    print(epoch, f"{loss.item():.12f}", f"{err:.10f}", rows.dtype, f"{rows.sum().item():.10f}", f"{cm.sum().item():.10f}")

# corpus: runnable
# Names the rewrites spell or trust, re-bound: a star-import from numpy (its `zeros`, `sum`,
# `round`...), `sum` shadowed by a project helper, a parameter `np` that is a number of points,
# `torch` re-bound to a thin wrapper inside a function.
from numpy import *  # noqa: F401,F403
import torch
import torch.nn as nn
import numpy as np

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(3, 1).to(device)
batches = [torch.randn(4, 3) for _ in range(3)]

buffers = []
for step in range(3):
    z = zeros(3)
    z[step] = 1.0
    buffers.append(z.tolist())
print("star zeros", buffers)


def sum(values, start=0.0):  # noqa: A001 - a project helper that ignores NaN
    out = start
    for v in values:
        if v == v:
            out += v
    return out


total = 0.0
for xb in batches:
    total += model(xb.to(device)).mean().item()
print("shadowed sum", round(sum([total, float("nan")]), 5))


def sample_points(np):
    grid = []
    for k in range(np):
        grid.append(torch.tensor([k, k + 1.0]).to(device))
    return torch.stack(grid)


print("np param", sample_points(3).sum().item())


class Tracer:
    def __init__(self, mod):
        self._mod = mod
        self.calls = 0

    def __getattr__(self, name):
        self.__dict__["calls"] = self.__dict__.get("calls", 0) + 1
        return getattr(self._mod, name)


def traced_loop():
    torch = Tracer(__import__("torch"))
    out = []
    for step in range(3):
        w = torch.ones(2)
        out.append(w.sum().item())
    return out, torch.calls


print("traced", traced_loop())

# corpus: runnable
# Red team 26, wave 2 (blind): arrays reached through shallow copies and lazy helpers that hand back
# the same objects: `cfg.copy()["w"]` / `dict(cfg)["w"]` / `{**cfg}["w"]` (a dict's shallow copy),
# `list(cfg.values())[0]`, `next(gen(a))` of a generator helper, a callable object's `__call__`
# returning its buffer, `functools.reduce` keeping its first element, a helper that converts with
# `np.asarray` (no copy); the loop changes the arrays in place
import functools

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2611)
device = "cuda" if torch.cuda.is_available() else "cpu"


def rows(a):
    for r in a:
        yield r


def to_array(a):
    return np.asarray(a, dtype=np.float64)


class Normalizer:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self):
        return self.scale


weights = np.linspace(1.0, 2.0, 4)
grid = np.arange(1.0, 9.0).reshape(2, 4)
cfg = {"w": weights, "grid": grid}
via_copy = cfg.copy()["w"]
via_dict = dict(cfg)["w"]
via_unpack = {**cfg}["grid"]
via_values = list(cfg.values())[0]
first_row = next(rows(grid))
norm = Normalizer(weights)
via_call = norm()
via_reduce = functools.reduce(lambda a, b: a, [weights, grid[0]])
via_asarray = to_array(weights)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    weights *= 1.5
    grid -= 0.25
    e1 = np.exp(-via_copy)
    e2 = np.exp(-via_dict)
    e3 = np.exp(-via_unpack)
    e4 = np.exp(-via_values)
    e5 = np.exp(-first_row)
    e6 = np.exp(-via_call)
    e7 = np.exp(-via_reduce)
    e8 = np.exp(-via_asarray)
    log.append([round(float(v.sum()), 5) for v in (e1, e2, e3, e4, e5, e6, e7, e8)])
print("copies", log)

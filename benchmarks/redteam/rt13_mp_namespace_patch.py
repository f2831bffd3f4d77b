# corpus: runnable
# torch patched through its namespace dict and computed names (red team 12's open item):
# `vars(torch)["stack"] = f`, `torch.__dict__["relu"] = ...`, `setattr(torch, name, ...)` in a loop
# over names, `sys.modules["torch"].tensor = ...`, `torch.nn.functional.__dict__.update(...)`.
import sys

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
_stack = torch.stack
_relu = torch.relu
_frelu = F.relu


def loud_stack(ts, dim=0):
    return _stack(ts, dim) * 2


vars(torch)["stack"] = loud_stack
torch.__dict__["relu"] = lambda t: _relu(t).clamp(max=0.5)
for name in ["sigmoid"]:
    setattr(torch, name, lambda t, _f=getattr(torch, name): _f(t) * 0 + 0.25)
F.__dict__.update(relu=lambda t, inplace=False: _frelu(t) + 1)

xs = torch.arange(12, dtype=torch.float32).reshape(4, 3) - 5
parts = []
for x in xs:
    parts.append(x.sum())
stacked = torch.tensor(parts)
print("stacked", stacked.tolist())

outs = []
for x in xs:
    r = x * (x > 0)
    outs.append(r.tolist())
print("relu", outs)

ints = torch.arange(12).reshape(4, 3) - 5
res = []
for x in ints:
    res.append((x * (x > 0)).tolist())
print("int relu", res)

got = []
for x in xs:
    got.append(1 / (1 + torch.exp(-x)))
print("sigmoid", [round(v.sum().item(), 4) for v in got])

vals = []
for x in ints:
    vals.append(x.max().item())
print("items", torch.tensor(vals).tolist())

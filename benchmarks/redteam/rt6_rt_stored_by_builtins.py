# corpus: runnable
# Second wave (written after the first fixes): constants built in the loop and kept by a
# builtin rather than a method or an assignment: `setattr` on a module, `dict.update(k=...)`,
# `dict(t=...)`, a `SimpleNamespace`, then changed in place through that holder; views made by
# `unsqueeze`, `.numpy()`, `unbind`, `split`, `detach()` and `copy.copy` changed in place.
import copy
import types

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
m = nn.Module()

res = []
for step in range(3):
    setattr(m, "mask", torch.tensor([1.0, 2.0], device=device))
    m.mask.add_(step)
    res.append(m.mask.tolist())
print("setattr", res)

cache = {}
res = []
for step in range(3):
    cache.update(scale=torch.tensor([1.0, 2.0], device=device))
    cache["scale"].mul_(2)
    res.append(cache["scale"].tolist())
print("update", res)

res = []
for step in range(3):
    holder = dict(t=torch.tensor([0.0, 1.0], device=device))
    holder["t"] += step
    res.append(holder["t"].tolist())
print("dict()", res)

res = []
for step in range(3):
    ns = types.SimpleNamespace(v=torch.tensor([0.0, 1.0], device=device))
    ns.v.add_(1)
    res.append(ns.v.tolist())
print("namespace", res)

res = []
for step in range(3):
    base = torch.tensor([1.0, 2.0], device=device)
    view = base.unsqueeze(0)
    view[0, 0] = view[0, 0] + step
    res.append(base.tolist())
print("unsqueeze view", res)

res = []
for step in range(3):
    t = torch.tensor([1.0, 2.0])
    arr = t.numpy()
    arr[0] += 1
    res.append(t.tolist())
print("numpy view", res)

res = []
for step in range(3):
    t = torch.tensor([1.0, 2.0], device=device)
    a, b = t.unbind()
    a.add_(1)
    parts = t.split(1)
    parts[1].mul_(3)
    res.append(t.tolist())
print("unbind/split", res)

res = []
for step in range(3):
    t = torch.tensor([1.0, 2.0], device=device)
    s = t.detach()
    s += 1
    c = copy.copy(t)
    c += 1
    res.append(t.tolist())
print("detach/copy", res)

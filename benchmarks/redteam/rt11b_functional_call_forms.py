# corpus: runnable
# Running statistics handed to functional_call in forms beyond a dict literal: `dict(...)`, a
# dict merged with `**`, a dict filled by item assignment, a tuple of dict names, the stateless
# module's function, and the function bound to another name.
import torch
import torch.nn as nn
from torch.nn.utils import stateless

torch.manual_seed(0)
torch.set_num_threads(1)
bn = nn.BatchNorm1d(3)
xs = torch.randn(3, 8, 3)
fc = torch.func.functional_call
base = {"running_var": torch.ones(3)}
rows = []
for epoch in range(3):
    a = torch.zeros(3)
    b = torch.zeros(3)
    c = torch.zeros(3)
    d = torch.zeros(3)
    e = torch.zeros(3)
    f = torch.zeros(3)
    state_c = {}
    state_c["running_mean"] = c
    bufs = {"running_mean": d}
    for x in xs:
        torch.func.functional_call(bn, dict(running_mean=a), (x + epoch,))
        torch.func.functional_call(bn, {**base, "running_mean": b}, (x,))
        torch.func.functional_call(bn, state_c, (x,))
        torch.func.functional_call(bn, (bufs, base), (x,))
        stateless.functional_call(bn, {"running_mean": e}, (x,))
        fc(bn, {"running_mean": f}, (x,))
    rows.append([round(t.sum().item(), 4) for t in (a, b, c, d, e, f)])
print("stats", rows)

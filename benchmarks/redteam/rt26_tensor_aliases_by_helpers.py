# corpus: runnable
# Red team 26, wave 1 (blind): tensors copied to the host and straight back (`torch.tensor(t.tolist())`)
# whose source is changed in place afterwards through a name a non-torch call returned: a helper
# returning its argument or a row of it, `dict.get`, `list(t)` (the rows are views), `copy.copy` of
# a list, a method returning `self.buf`, a dataclass field; the copy must not become a view
import copy
from dataclasses import dataclass

import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2604)
device = "cuda" if torch.cuda.is_available() else "cpu"


def same(t):
    return t


def row_of(t, i):
    return t[i]


@dataclass
class Ema:
    shadow: torch.Tensor


class Bank:
    def __init__(self, t):
        self.buf = t

    def current(self):
        return self.buf


model = nn.Linear(3, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
log = []
for step in range(3):
    a = torch.ones(3) * (step + 1)
    b = torch.arange(6.0).reshape(2, 3)
    c = torch.full((3,), 2.0)
    d = torch.arange(4.0).reshape(2, 2)
    e = torch.ones(2, 3)
    f = torch.linspace(0.0, 1.0, 3)
    g = torch.zeros(3)
    snap_a = torch.tensor(a.tolist())
    snap_b = torch.tensor(b.tolist())
    snap_c = torch.tensor(c.tolist())
    snap_d = torch.tensor(d.tolist())
    snap_e = torch.tensor(e.tolist())
    snap_f = torch.tensor(f.tolist())
    snap_g = torch.tensor(g.tolist())
    same(a).mul_(3.0)
    row_of(b, 0).add_(10.0)
    {"c": c}.get("c").sub_(1.0)
    list(d)[1].mul_(-1.0)
    copy.copy([e, e])[0].add_(5.0)
    Ema(f).shadow.mul_(4.0)
    Bank(g).current().add_(7.0)
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean() + 1e-3 * float(snap_a.sum() + snap_b.sum() + snap_c.sum())
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append([snap.sum().item() for snap in (snap_a, snap_b, snap_c, snap_d, snap_e, snap_f, snap_g)])
print("aliases", log)

# corpus: runnable
# Object attributes changed without an attribute store: `vars(cfg)["scale"] = ...`,
# `cfg.__dict__.update(...)`, `setattr(cfg, key, ...)` with the key from a list,
# `object.__setattr__(frozen, ...)` on a frozen dataclass, a helper given `vars(cfg)`.
from dataclasses import dataclass
from types import SimpleNamespace

import torch

torch.set_num_threads(1)
cfg = SimpleNamespace(scale=1.0, width=2, n=1)
vals = []
for step in range(3):
    s = torch.full((2,), cfg.scale)
    vars(cfg)["scale"] = cfg.scale * 2
    vals.append(s.sum().item())
print("vars store", vals)

ws = []
for step in range(3):
    z = torch.zeros(cfg.width)
    cfg.__dict__.update(width=cfg.width + 1)
    ws.append(z.numel())
print("__dict__.update", ws)

keys = ["n"]
ns = []
for step in range(3):
    a = torch.arange(cfg.n)
    for k in keys:
        setattr(cfg, k, getattr(cfg, k) + 1)
    ns.append(a.numel())
print("setattr computed", ns)


@dataclass(frozen=True)
class Sched:
    lr: float = 0.1


sch = Sched()
lrs = []
for step in range(3):
    lr = torch.tensor(sch.lr)
    object.__setattr__(sch, "lr", sch.lr / 2)
    lrs.append(round(lr.item(), 5))
print("frozen setattr", lrs)


def halve(d):
    d["scale"] = d["scale"] / 2


out = []
for step in range(3):
    t = torch.tensor([cfg.scale])
    halve(vars(cfg))
    out.append(t.item())
print("helper on vars()", out)

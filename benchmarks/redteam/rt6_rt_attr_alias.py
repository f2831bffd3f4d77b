# corpus: runnable
# Constants built in the loop from attributes whose value the loop changes without assigning
# to that name: the same config object under a second name, a property computed from other
# state, `__getattr__` forwarding to a dict, a module attribute set by a helper, a dict entry
# changed through an alias.
import types
from dataclasses import dataclass

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class Config:
    scale: float = 1.0
    margin: float = 0.1


cfg = Config()
run_cfg = cfg
xs = torch.randn(4, 3)
out = []
for epoch in range(4):
    run_cfg.scale = 1.0 + epoch
    w = torch.tensor([cfg.scale, cfg.margin], device=device)
    out.append((xs[epoch].to(device)[:2] * w).sum().item())
print("alias", [round(v, 5) for v in out])


class Schedule:
    def __init__(self):
        self.step = 0

    @property
    def factor(self):
        return min(1.0, (self.step + 1) / 3)

    def advance(self):
        self.step += 1


sched = Schedule()
values = []
for epoch in range(4):
    gain = torch.full((3,), sched.factor, device=device)
    values.append(gain.sum().item())
    sched.advance()
print("property", [round(v, 5) for v in values])


class Hparams:
    def __init__(self, **kw):
        self.__dict__["_d"] = dict(kw)

    def __getattr__(self, name):
        return self._d[name]

    def decay(self):
        self._d["temp"] *= 0.5


hp = Hparams(temp=2.0)
temps = []
for step in range(3):
    t = torch.tensor(hp.temp, device=device)
    temps.append(round(t.item(), 5))
    hp.decay()
print("getattr", temps)

settings = types.SimpleNamespace(threshold=0.5)


def tighten():
    settings.threshold += 0.1


counts = []
for step in range(3):
    thr = torch.tensor(settings.threshold, device=device)
    counts.append(int((xs.to(device) > thr).sum().item()))
    tighten()
print("module attr", counts)

hparams = {"lr": 0.1}
view = hparams
lrs = []
for step in range(3):
    lr = torch.tensor(hparams["lr"], device=device)
    lrs.append(round(lr.item(), 5))
    view["lr"] = view["lr"] * 0.1
print("dict alias", lrs)

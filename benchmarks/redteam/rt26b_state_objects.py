# corpus: runnable
# Red team 26, wave 2 (blind): training-state objects whose fields are arrays or tensors read into
# names before the loop: a dataclass's field, a plain class's attribute set in `__init__`, a
# `SimpleNamespace` field, a property; the loop updates the field in place (`state.ema *= decay`,
# `self.count += 1` in a method), so NumPy / torch work on the read name is not invariant
import types
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2612)
device = "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class TrainState:
    ema: np.ndarray
    hist: np.ndarray = field(default_factory=lambda: np.ones(3))


class Tracker:
    def __init__(self):
        self.totals = np.ones(3)

    def update(self, v):
        self.totals += v

    @property
    def view(self):
        return self.totals


state = TrainState(np.full(3, 2.0))
tracker = Tracker()
ns = types.SimpleNamespace(scale=torch.ones(3))
ema = state.ema
hist = state.hist
totals = tracker.totals
prop = tracker.view
scale = ns.scale
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    x = torch.randn(8, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    state.ema *= 0.5
    state.hist += 1.0
    tracker.update(float(step))
    ns.scale.mul_(2.0)
    a = np.log(ema)
    b = np.log(hist)
    c = np.log(totals)
    d = np.log(prop)
    e = torch.tensor([1.0, 2.0, 3.0]) * scale.sum()
    f = torch.log(scale)
    log.append([round(float(v.sum()), 5) for v in (a, b, c, d, e, f)])
print("state", log)

# corpus: runnable
# Red team 23: NumPy views and changing values reached through functools.partial, lambda default
# arguments, properties, __getattr__ and methods with side effects
import functools

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
device = "cuda" if torch.cuda.is_available() else "cpu"

running = torch.zeros(4)
to_host = functools.partial(torch.Tensor.numpy, running)
h_partial = to_host()
h_lambda = (lambda t=running: t.numpy())()


class Box:
    def __init__(self, t):
        self._t = t

    @property
    def host(self):
        return self._t.numpy()


class Lazy:
    def __getattr__(self, name):
        return running.numpy()


h_prop = Box(running).host
h_getattr = Lazy().anything


class Schedule:
    def __init__(self):
        self.k = 0

    @property
    def value(self):
        self.k += 1
        return [float(self.k)] * 4


class Knobs:
    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        self.calls += 1
        return np.full(4, float(self.calls))


sched = Schedule()
knobs = Knobs()
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    a = np.sqrt(h_partial)
    b = np.sqrt(h_lambda)
    c = np.sqrt(h_prop)
    d = np.sqrt(h_getattr)
    v = torch.tensor(sched.value, device=device)
    k = np.sqrt(knobs.gain)
    x = torch.randn(8, 4, device=device)
    loss = model(x * v).pow(2).mean() * 1e-3
    opt.zero_grad()
    loss.backward()
    opt.step()
    running.add_(float(step + 1))
    log.append([round(float(t.sum()), 5) for t in (a, b, c, d, k)] + [float(v.sum())])
print("out of sight", log)

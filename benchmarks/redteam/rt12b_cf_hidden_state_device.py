# corpus: runnable
# Wave 2 (a device in the program): preprocessing helpers whose result depends on state the loop changes without naming it: a
# mutable default argument that grows per call, a class attribute the loop anneals, a module
# attribute changed by a method, an lru_cache'd helper over an array changed in place.
import functools

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
raw = np.linspace(0.0, 1.0, 12).reshape(4, 3).astype(np.float32)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def with_history(a, seen=[]):
    seen.append(1)
    return np.log1p(a) * len(seen)


class Cfg:
    temperature = 1.0


def tempered(a):
    return np.exp(a / Cfg.temperature) / np.exp(a / Cfg.temperature).sum()


class Annealer:
    def step(self):
        Cfg.temperature *= 0.5


ann = Annealer()
out = []
for epoch in range(3):
    f1 = with_history(raw)
    f2 = tempered(raw)
    x = torch.from_numpy(f1 + f2).to(device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    ann.step()
    out.append(round(loss.item(), 5))
print("hidden state", out)


@functools.lru_cache(maxsize=None)
def table(n):
    return np.arange(n, dtype=np.float32)


out = []
for epoch in range(3):
    t = np.cumsum(table(3))
    table(3)[0] += 1.0
    out.append(t.tolist())
print("cached", out)

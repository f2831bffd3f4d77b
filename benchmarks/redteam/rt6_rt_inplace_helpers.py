# corpus: runnable
# Buffers built in the loop and then changed in place by code that is not a method ending in
# `_` on their name: a helper that does `t += 1` on its parameter, a lambda, `map` over a
# list, `operator.iadd`, `__setitem__`, an in-place activation module, a method of an
# object that keeps the buffer as an attribute.
import operator

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
xs = torch.randn(4, 3)


def bump(t, by):
    t += by
    return t


res = []
for step in range(3):
    acc = torch.zeros(3, device=device)
    bump(acc, xs[step].to(device))
    res.append(acc.sum().item())
print("helper +=", [round(v, 5) for v in res])

scale_in_place = lambda t, s: t.mul_(s)
res = []
for step in range(3):
    g = torch.ones(3, device=device)
    scale_in_place(g, 2.0)
    res.append(g.sum().item())
print("lambda", res)

res = []
for step in range(3):
    a = torch.ones(2, device=device)
    b = torch.ones(2, device=device)
    list(map(lambda t: t.add_(step), [a, b]))
    res.append((a + b).sum().item())
print("map", res)

res = []
for step in range(3):
    c = torch.zeros(2, device=device)
    operator.iadd(c, 1.0)
    c.__setitem__(0, c[0] + step)
    res.append(c.tolist())
print("operator", res)

act = nn.LeakyReLU(0.5, inplace=True)
res = []
for step in range(3):
    v = torch.tensor([-1.0, 2.0], device=device)
    act(v)
    res.append(v.tolist())
print("inplace module", res)


class Meter:
    def __init__(self):
        self.buf = None

    def start(self, buf):
        self.buf = buf

    def add(self, x):
        self.buf += x


m = Meter()
res = []
for step in range(3):
    buf = torch.zeros(3, device=device)
    m.start(buf)
    m.add(xs[step].to(device))
    res.append(round(buf.sum().item(), 5))
print("meter attr", res)

# corpus: runnable
# A helper's behaviour changed without rebinding its name: `f.__code__ = g.__code__`,
# `f.__defaults__ = ...`, `f.__kwdefaults__`, `globals().update(...)`, `setattr(sys.modules[__name__], ...)`
# above the loop; the loop calls the helper and builds a tensor from what it may change.
import sys

import torch

torch.set_num_threads(1)
table = [1.0, 2.0]


def record(x):
    return x


def _record(x):
    table.append(x)
    return x


record.__code__ = _record.__code__

a = []
for step in range(3):
    t = torch.tensor(table)
    record(float(step))
    a.append(t.numel())
print("__code__", a)

box = [1.0]


def fill(x, into=None):
    if into is not None:
        into[0] += x
    return x


fill.__defaults__ = (box,)
b = []
for step in range(3):
    t = torch.tensor(box)
    fill(2.0)
    b.append(t.item())
print("__defaults__", b)

keep = [0.0]


def note(x, *, sink=None):
    if sink is not None:
        sink[0] -= x


note.__kwdefaults__ = {"sink": keep}
c = []
for step in range(3):
    t = torch.tensor(keep)
    note(1.0)
    c.append(t.item())
print("__kwdefaults__", c)

vals = [5.0]


def log(x):
    return x


globals().update(log=lambda x: vals.append(x))
d = []
for step in range(3):
    t = torch.tensor(vals)
    log(1.0)
    d.append(t.numel())
print("globals().update", d)

more = [7.0]


def tick(x):
    return x


setattr(sys.modules[__name__], "tick", lambda x: more.append(x))
e = []
for step in range(3):
    t = torch.tensor(more)
    tick(1.0)
    e.append(t.numel())
print("setattr module", e)

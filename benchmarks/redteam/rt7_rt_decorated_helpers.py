# corpus: runnable
# Constants built per iteration and handed to helpers wrapped by decorators: `functools.wraps`
# around a helper that changes its argument, `@torch.no_grad()` on an in-place normaliser,
# `functools.lru_cache` keyed by the tensor, a `staticmethod` changing its argument, a class
# method reached through `super()`.
import functools

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
xs = torch.randn(3, 4)


def logged(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs)
    return inner


@logged
def fill(t, v):
    t.fill_(v)
    return t


res = []
for step in range(3):
    buf = torch.zeros(4, device=device)
    fill(buf, float(step))
    res.append(buf.sum().item())
print("wraps", res)


@torch.no_grad()
def normalise_(t):
    t.div_(t.norm())


res = []
for step in range(3):
    v = torch.ones(4, device=device)
    normalise_(v)
    res.append(round(v.sum().item(), 5))
print("no_grad helper", res)


@functools.lru_cache(maxsize=None)
def describe(t):
    return t.sum().item()


res = []
for step in range(3):
    key = torch.zeros(2, device=device)
    key += step
    res.append(describe(key))
print("lru_cache", res)


class Ops:
    @staticmethod
    def bump(t):
        t.add_(1.0)


class MoreOps(Ops):
    def run(self, t):
        super().bump(t)
        return t


ops = MoreOps()
res = []
for step in range(3):
    w = torch.zeros(2, device=device)
    ops.run(w)
    Ops.bump(w)
    res.append(w.sum().item())
print("staticmethod/super", res)

res = []
for step in range(3):
    s = torch.ones(2, device=device)
    (lambda t: t.mul_(2.0))(s)
    res.append(s.sum().item())
print("iife", res)

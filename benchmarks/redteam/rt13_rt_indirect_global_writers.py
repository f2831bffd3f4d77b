# corpus: runnable
# Helpers that rebind a global the loop's tensor reads, called by forms other than a plain call:
# `functools.partial`, a decorated helper (the decorator's wrapper changes it), `map()` with a
# side-effecting function, `sorted(key=...)`, `getattr(module, name)()`, `min(default=...)` via
# a `__lt__`, an `atexit`-free `weakref` callback, an f-string formatting an object with `__format__`.
import functools
import sys

import torch

torch.set_num_threads(1)
level = 1.0


def raise_level(k=1):
    global level
    level += k
    return k


def counted(fn):
    def wrapper(*a):
        global level
        level *= 3
        return fn(*a)
    return wrapper


@counted
def noop(x):
    return x


class Loud:
    def __format__(self, spec):
        raise_level()
        return "loud"


bump = functools.partial(raise_level, 2)
out = {k: [] for k in ("partial", "decorated", "map", "sorted", "getattr", "format")}
for step in range(3):
    t = torch.full((1,), level)
    bump()
    out["partial"].append(t.item())
for step in range(3):
    t = torch.full((1,), level)
    noop(step)
    out["decorated"].append(t.item())
for step in range(3):
    t = torch.full((1,), level)
    list(map(raise_level, [1]))
    out["map"].append(t.item())
for step in range(3):
    t = torch.full((1,), level)
    sorted([1, 2], key=raise_level)
    out["sorted"].append(t.item())
for step in range(3):
    t = torch.full((1,), level)
    getattr(sys.modules[__name__], "raise_" + "level")()
    out["getattr"].append(t.item())
loud = Loud()
for step in range(3):
    t = torch.full((1,), level)
    msg = f"{loud}"
    out["format"].append(t.item())
for k, v in out.items():
    print(k, v)

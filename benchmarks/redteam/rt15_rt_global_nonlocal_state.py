# corpus: runnable
# Module globals and closure cells rebound by code the loop runs out of sight: `global` in a
# function kept in a dict of callbacks, a `nonlocal` counter bumped by a closure passed to
# `sorted(key=...)`, a function rebinding a global through `globals()` called via `map`.
import torch

torch.set_num_threads(1)
SCALE = 1.0


def grow():
    global SCALE
    SCALE *= 2


callbacks = {"on_step": grow}
vals = []
for step in range(3):
    s = torch.tensor(SCALE)
    callbacks["on_step"]()
    vals.append(float(s))
print("scale", vals)


def make_counter():
    n = 0

    def key(v):
        nonlocal n
        n += 1
        return -v

    def count():
        return n

    return key, count


key, count = make_counter()
counts = []
for step in range(3):
    c = torch.tensor(count())
    order = sorted([3, 1, 2], key=key)
    counts.append((int(c), order[0]))
print("counts", counts)

WIDTH = 2


def widen(_):
    globals()["WIDTH"] = globals()["WIDTH"] + 1
    return 0


widths = []
for step in range(3):
    z = torch.zeros(WIDTH)
    list(map(widen, [0]))
    widths.append(z.numel())
print("widths", widths)

# corpus: runnable
# Tensors whose shape, dtype or device comes from state a helper changes through `global`
# or `nonlocal`, from a dict entry set by a callback, from `len()` of a list a default argument grows.
import functools

import torch

torch.set_num_threads(1)
width = 2
DTYPES = [torch.float32, torch.float64, torch.int64]
phase = 0


def widen():
    global width
    width += 1


def next_phase(_unused=None):
    global phase
    phase = (phase + 1) % 3


shapes = []
for step in range(3):
    buf = torch.zeros(width)
    widen()
    shapes.append(tuple(buf.shape))
print("global width", shapes)

kinds = []
hooks = {"after": next_phase}
for step in range(3):
    t = torch.ones(2, dtype=DTYPES[phase])
    hooks["after"]()
    kinds.append(str(t.dtype))
print("dtype by dict callback", kinds)

cfg = {"n": 2}
grow = functools.partial(cfg.__setitem__, "n")
sizes = []
for step in range(3):
    r = torch.arange(cfg["n"])
    grow(cfg["n"] + 1)
    sizes.append(r.tolist())
print("partial setitem", sizes)


def pad_to(seen=[]):
    seen.append(1)
    return len(seen)


def make_run():
    size = 1
    out = []

    def bump():
        nonlocal size
        size *= 2

    for step in range(3):
        e = torch.ones(size)
        bump()
        out.append(e.numel())
    return out


print("nonlocal", make_run())

lens = []
n = 1
for step in range(3):
    z = torch.zeros(n)
    n = pad_to()
    lens.append(z.numel())
print("default arg", lens)

acts = []
apply = {"grow": lambda: widen()}
for step in range(3):
    q = torch.full((width,), 1.5)
    apply["grow"]()
    acts.append(q.numel())
print("lambda in dict", acts)

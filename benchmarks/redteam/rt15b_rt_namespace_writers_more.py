# corpus: runnable
# Functions handed to `map` / `sorted(key=...)` / `filter` that rebind a global by other
# spellings: `sys.modules[__name__].__dict__[...]`, `vars(sys.modules[__name__])[...]`,
# `setattr(sys.modules[__name__], ...)`, `exec(..., globals())`.
import sys

import torch

torch.set_num_threads(1)
A = 1
B = 1
C = 1
D = 1


def bump_a(_):
    sys.modules[__name__].__dict__["A"] += 1
    return 0


def bump_b(v):
    vars(sys.modules[__name__])["B"] += 1
    return v


def bump_c(v):
    setattr(sys.modules[__name__], "C", C + 1)
    return True


def bump_d(_):
    exec("D += 1", globals())
    return 0


sizes = []
for step in range(3):
    a = torch.zeros(A)
    b = torch.zeros(B)
    c = torch.zeros(C)
    d = torch.zeros(D)
    list(map(bump_a, [0]))
    sorted([1], key=bump_b)
    list(filter(bump_c, [1]))
    list(map(bump_d, [0]))
    sizes.append((a.numel(), b.numel(), c.numel(), d.numel()))
print(sizes)

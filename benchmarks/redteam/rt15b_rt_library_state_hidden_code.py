# corpus: runnable
# Library state changed by code the loop runs without a call in sight: a generator the loop
# iterates (its body runs between iterations), a program context manager's `__enter__` that does
# not restore on `__exit__`, a method of a program object kept in an attribute, a `partial` of a
# setter kept in a dict.
import functools
import warnings

import numpy as np
import torch

torch.set_num_threads(1)


def phases(n):
    for i in range(n):
        torch.set_grad_enabled(i % 2 == 0)
        yield i
    torch.set_grad_enabled(True)


seen = []
for i in phases(4):
    g = torch.tensor(torch.is_grad_enabled())
    seen.append(bool(g))
torch.set_grad_enabled(True)
print("generator", seen)


class Quiet:
    def __enter__(self):
        warnings.simplefilter("ignore")
        return self

    def __exit__(self, *exc):
        return False


warnings.resetwarnings()
sizes = []
for step in range(3):
    z = torch.zeros(len(warnings.filters) + 1)
    with Quiet():
        pass
    sizes.append(z.numel())
warnings.resetwarnings()
print("context", sizes)


class Trainer:
    def __init__(self):
        self.strict = functools.partial(np.seterr, over="raise")

    def harden(self):
        np.seterr(invalid="raise")


tr = Trainer()
hooks = {"after": functools.partial(np.seterr, divide="raise")}
modes = []
for step in range(2):
    m = torch.tensor([np.geterr()[k] == "raise" for k in ("over", "invalid", "divide")])
    tr.strict()
    tr.harden()
    hooks["after"]()
    modes.append(m.tolist())
np.seterr(all="warn")
print("methods and partials", modes)

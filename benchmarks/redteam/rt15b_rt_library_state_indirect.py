# corpus: runnable
# Library state changed and read through indirect spellings: a setter bound to a name
# (`quiet = warnings.simplefilter`), kept in a list, looked up by `getattr(np, "seterr")`, reached
# through `sys.modules[...]` / `importlib.import_module(...)`; read through a program helper that
# calls the getter, through `getattr(torch, "is_grad_enabled")()` and an imported getter alias.
import importlib
import sys
import warnings

import numpy as np
import torch
from numpy import geterr

torch.set_num_threads(1)
warnings.resetwarnings()
quiet = warnings.simplefilter
out = []
for step in range(3):
    n = torch.tensor(len(warnings.filters))
    quiet("ignore", category=DeprecationWarning if step else UserWarning)
    out.append(int(n))
print("bound setter", out)
warnings.resetwarnings()

setters = [np.seterr]
modes = []
for step in range(3):
    m = torch.tensor(geterr()["over"] == "raise")
    setters[0](over="raise" if step % 2 == 0 else "warn")
    modes.append(bool(m))
np.seterr(all="warn")
print("listed setter", modes)

flags = []
for step in range(3):
    f = torch.tensor(np.geterr()["invalid"] == "ignore")
    getattr(np, "seterr")(invalid="ignore" if step % 2 == 0 else "warn")
    flags.append(bool(f))
np.seterr(all="warn")
print("getattr setter", flags)

counts = []
for step in range(3):
    c = torch.zeros(len(warnings.filters) + 1)
    sys.modules["warnings"].simplefilter("ignore", category=ImportWarning if step else ResourceWarning)
    counts.append(c.numel())
warnings.resetwarnings()
print("sys.modules setter", counts)

errs = []
for step in range(3):
    e = torch.tensor(np.geterr()["under"] == "raise")
    importlib.import_module("numpy").seterr(under="raise" if step % 2 == 0 else "ignore")
    errs.append(bool(e))
np.seterr(all="warn")
print("import_module setter", errs)


def grad_on():
    return torch.is_grad_enabled()


grads = []
for step in range(3):
    g = torch.tensor(grad_on())
    torch.set_grad_enabled(step % 2 == 1)
    grads.append(bool(g))
torch.set_grad_enabled(True)
print("helper getter", grads)

dets = []
for step in range(3):
    d = torch.tensor(getattr(torch, "are_deterministic_algorithms_enabled")())
    torch.use_deterministic_algorithms(step % 2 == 0)
    dets.append(bool(d))
torch.use_deterministic_algorithms(False)
print("getattr getter", dets)

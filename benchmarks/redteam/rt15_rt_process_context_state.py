# corpus: runnable
# Process-wide state a data loop changes through library calls and reads back: the working
# directory (`os.chdir` / `os.getcwd`), the decimal context's precision, the garbage
# collector's switch, the recursion limit.
import decimal
import gc
import os
import sys
import tempfile

import torch

torch.set_num_threads(1)
home = os.getcwd()
work = tempfile.mkdtemp()
moved = []
for step in range(3):
    here = torch.tensor(os.getcwd() == home)
    os.chdir(work if step == 0 else home)
    moved.append(bool(here))
os.chdir(home)
print("at home", moved)

ctx_vals = []
for step in range(3):
    third = torch.tensor(float(decimal.Decimal(1) / decimal.Decimal(3)), dtype=torch.float64)
    decimal.getcontext().prec = 4 + step
    ctx_vals.append(repr(third.item()))
decimal.getcontext().prec = 28
print("decimal thirds", ctx_vals)

gcs = []
for step in range(3):
    g = torch.tensor(gc.isenabled())
    if step == 0:
        gc.disable()
    else:
        gc.enable()
    gcs.append(bool(g))
gc.enable()
print("gc", gcs)

limit0 = sys.getrecursionlimit()
limits = []
for step in range(3):
    lim = torch.tensor(sys.getrecursionlimit() - limit0)
    sys.setrecursionlimit(limit0 + 10 * (step + 1))
    limits.append(int(lim))
sys.setrecursionlimit(limit0)
print("limits", limits)

# corpus: runnable
# Values read from process state the loop changes: `os.environ` set by the loop (and by a
# helper), `sys.argv` extended, `torch.get_default_dtype()` changed through a helper that calls
# `torch.set_default_dtype`, `torch.get_num_threads()`.
import os
import sys

import torch

torch.set_num_threads(1)
os.environ["PAEF_RT14_SCALE"] = "1.0"
vals = []
for step in range(3):
    s = torch.tensor(float(os.environ["PAEF_RT14_SCALE"]))
    os.environ["PAEF_RT14_SCALE"] = str(s.item() * 3)
    vals.append(s.item())
print("environ", vals)


def bump_env():
    os.environ["PAEF_RT14_N"] = str(int(os.environ.get("PAEF_RT14_N", "1")) + 1)


ns = []
for step in range(3):
    a = torch.arange(int(os.environ.get("PAEF_RT14_N", "1")))
    bump_env()
    ns.append(a.numel())
print("environ via helper", ns)

argv0 = len(sys.argv)
lens = []
for step in range(3):
    t = torch.zeros(len(sys.argv) - argv0 + 1)
    sys.argv.append("--x")
    lens.append(t.numel())
del sys.argv[argv0:]
print("argv", lens)


def widen():
    torch.set_default_dtype(torch.float64)


kinds = []
for step in range(2):
    t = torch.tensor([1.0, 2.0])
    widen()
    kinds.append(str(t.dtype))
torch.set_default_dtype(torch.float32)
print("default dtype via helper", kinds)

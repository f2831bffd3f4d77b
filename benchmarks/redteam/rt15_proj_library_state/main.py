# corpus: runnable
# A project whose loop calls a local module's setup hooks (`setup.quiet_after`, `setup.strict`)
# that change library state (`warnings` filters, NumPy's error mode, torch's grad mode), while
# the loop reads that state into tensors.
import warnings

import numpy as np
import torch

import setup

torch.set_num_threads(1)
warnings.resetwarnings()
seen = []
for step in range(3):
    nf = torch.tensor(len(warnings.filters))
    setup.quiet_after(step)
    seen.append(int(nf))
print("filters", seen)

modes = []
for step in range(3):
    m = torch.tensor(np.geterr()["over"] == "raise")
    setup.strict(step)
    modes.append(bool(m))
np.seterr(all="warn")
print("modes", modes)

grads = []
for step in range(3):
    g = torch.tensor(torch.is_grad_enabled())
    setup.freeze(step)
    grads.append(bool(g))
torch.set_grad_enabled(True)
print("grads", grads)
warnings.resetwarnings()

# corpus: runnable
# `torch.manual_seed` / `np.random.seed` reset inside the loop (per-epoch reproducibility):
# work moved out of the loop, or deduplicated, changes which numbers each draw gets.
import numpy as np
import torch
from numpy import random as npr

vals = []
for epoch in range(3):
    torch.manual_seed(epoch)
    np.random.seed(epoch)
    perm = npr.permutation(6)
    table = np.sort(npr.rand(4))  # paef: refuse cpu-function
    a = torch.randn(2)
    b = torch.randn(2)
    grid = torch.linspace(0, 1, 4)  # paef: expect-fix redundant-tensor
    vals.append((perm.tolist(), np.round(table, 4).tolist(), a.tolist(), b.tolist(), (grid * epoch).tolist()))
for v in vals:
    print(v)

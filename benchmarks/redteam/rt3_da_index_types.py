# corpus: runnable
# Dict-of-lists rows gathered with index containers that are not lists of ints: sets, ranges,
# dict keys, NumPy int arrays, a tuple.
import numpy as np
import torch

data = {"u": [10, 11, 12, 13], "v": [0.5, 1.5, 2.5, 3.5]}
for idx in [{0, 1}, {2, 3}]:
    ub = torch.tensor([data["u"][i] for i in idx])
    print(ub)
for idx in [range(0, 2), range(2, 4)]:
    vb = torch.tensor([data["v"][i] for i in idx])
    print(vb)
for idx in [{0: "a", 3: "b"}.keys(), {1: "c"}.keys()]:
    ub = torch.tensor([data["u"][i] for i in idx])
    print(ub)
for idx in [np.array([0, 2]), np.array([1, 3])]:
    ub = torch.tensor([data["u"][i] for i in idx])
    print(ub)
for idx in [(3, 0), (1, 2)]:
    vb = torch.tensor([data["v"][i] for i in idx])
    print(vb)

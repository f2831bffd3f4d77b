# corpus: runnable
# A name bound by an import or def later in the file, or by a star import, where the analysis
# may read it as the library's: `tensor` rebound by a helper, `np` rebound inside a function.
import numpy as np
import torch
from torch import tensor


def build(values):
    return tensor(values)


for step in range(2):
    t = build([1, 2, 3])
    print(step, t.dtype, t)


def tensor(values):  # later: the project's own constructor, float64 on purpose
    return torch.as_tensor(values, dtype=torch.float64)


for step in range(2):
    t = tensor([1, 2, 3])  # paef: refuse redundant-tensor
    t.mul_(2)
    print(step, t.dtype, t)


def stats(rows):
    import statistics as np  # noqa: shadowing on purpose in this old helper

    return np.mean(rows)


for step in range(2):
    print(step, stats([1, 2, 3, 4]))

hist = []
for step in range(3):
    arr = np.array([1.0, 2.0, 3.0])  # paef: refuse cpu-function
    arr *= step + 1
    hist.append(arr)
print([h.tolist() for h in hist])

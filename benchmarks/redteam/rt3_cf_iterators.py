# corpus: runnable
# NumPy/torch conversions of iterators that the first iteration consumes (a generator, `map`,
# `zip`, an `iter()`), and NumPy Generator methods that draw random numbers.
import numpy as np
import torch

data = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
rows = iter(data)
out = []
for epoch in range(3):
    arr = np.array(list(rows))
    out.append(arr.shape)
print(out)

vals = map(float, [1, 2, 3])
out = []
for epoch in range(2):
    t = torch.tensor(list(vals))
    out.append(t.numel())
print(out)

pairs = zip([1, 2], [3, 4])
out = []
for epoch in range(2):
    m = np.asarray(list(pairs), dtype=float)
    out.append(m.size)
print(out)

gen = (x * 2 for x in range(4))
out = []
for epoch in range(2):
    g = np.fromiter(gen, dtype=float)
    out.append(float(g.sum()))
print(out)

rng = np.random.default_rng(0)
out = []
for epoch in range(3):
    perm = rng.permutation(5)
    out.append(perm.tolist())
print(out)

out = []
for epoch in range(3):
    noise = rng.normal(0.0, 1.0, size=2)
    pick = rng.choice(10, size=2, replace=False)
    out.append((np.round(noise, 4).tolist(), pick.tolist()))
print(out)

rs = np.random.RandomState(0)
out = []
for epoch in range(2):
    idx = rs.permutation(4)
    out.append(idx.tolist())
print(out)

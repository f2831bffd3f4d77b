# corpus: runnable
# NumPy preprocessing re-run per epoch on arrays the epoch changes in place through calls the
# array is not named at: `np.random.shuffle`, `ndarray.sort`, `np.add(..., out=)`, a column view,
# `.T`, `np.copyto`, `np.put`, `.flat`, a `np.ndarray.resize`-free reshape view, a helper.
import numpy as np
import torch

torch.set_num_threads(1)
np.random.seed(0)
raw = np.random.rand(6, 3)

out = []
for epoch in range(3):
    np.random.shuffle(raw)
    head = raw[:2] / raw.std(axis=0)
    out.append(round(float(head.sum()), 6))
print("A shuffle", out)

vals = np.random.rand(5)
out = []
for epoch in range(3):
    cdf = np.cumsum(vals) / vals.sum()
    out.append([round(float(c), 5) for c in cdf[:2]])
    vals.sort()
print("B sort", out)

arr = np.ones(4)
out = []
for epoch in range(3):
    feat = np.log1p(arr)
    out.append(round(float(feat.sum()), 6))
    np.add(arr, 1.0, out=arr)
print("C out=", out)

tab = np.random.rand(4, 2)
col = tab[:, 0]
out = []
for epoch in range(3):
    z = (tab - tab.mean(axis=0)) / (tab.std(axis=0) + 1e-6)
    out.append(round(float(np.abs(z).sum()), 5))
    col *= 2
print("D column view", out)

sq = np.random.rand(3, 3)
sqt = sq.T
out = []
for epoch in range(3):
    e = np.exp(sq).sum(axis=1)
    out.append(round(float(e[0]), 5))
    sqt[0] += 1
print("E transpose", out)

src = np.random.rand(4)
out = []
for epoch in range(3):
    feats = np.sqrt(src) * 2
    out.append(round(float(feats.sum()), 6))
    np.copyto(src, src * 0.5)
print("F copyto", out)

pv = np.zeros(5)
out = []
for epoch in range(3):
    h = np.tanh(pv + 1)
    out.append(round(float(h.sum()), 6))
    np.put(pv, [epoch], [3.0])
print("G put", out)

fl = np.zeros((2, 2))
out = []
for epoch in range(3):
    s = np.square(fl).sum()
    out.append(float(s))
    fl.flat[epoch] = epoch + 1
print("H flat", out)


def jitter(a):
    a += 0.1


jj = np.zeros(3)
out = []
for epoch in range(3):
    m = np.mean(jj * 2)
    out.append(round(float(m), 6))
    jitter(jj)
print("I helper", out)

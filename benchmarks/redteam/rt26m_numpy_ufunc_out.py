# corpus: runnable
# Red team 26m, wave 1: NumPy ufuncs given their output by position (`np.add(a, b, a)`,
# `np.negative(a, a)`, `np.divmod(a, 3, q, r)`), and functions whose `out` parameter is
# positional (`np.clip(a, lo, hi, a)`, `np.round(a, 1, a)`, `np.cumsum(a, 0, None, c)`).
import numpy as np
import torch

torch.set_num_threads(1)
log = []


def centred(v):
    return (v - v.mean()) / (v.std() + 1.0)


a = np.arange(6, dtype=np.float64)
for step in range(3):
    np.add(a, 1.5, a)
    t = torch.tensor(a)
    feats = centred(a)
    log.append(round(float(t.sum() + feats.sum()), 4))

b = np.linspace(-1.0, 1.0, 5)
for step in range(3):
    np.negative(b, b)
    np.multiply(b, 2.0, b)
    tb = torch.from_numpy(np.log1p(np.abs(b)))
    log.append(round(float(tb.sum()), 4))

c = np.arange(8, dtype=np.float64)
q, r = np.zeros(8), np.zeros(8)
for step in range(3):
    np.divmod(c + step, 3.0, q, r)
    tq = torch.tensor(q)
    log.append(float(tq.sum() + torch.tensor(r).sum()))

d = np.linspace(-3.0, 3.0, 7)
for step in range(3):
    np.clip(d * 2, -2.0 + step * 0.5, 2.0, d)
    td = torch.tensor(d)
    log.append(round(float(td.sum()), 4))

e = np.linspace(0.0, 1.0, 4)
csum = np.zeros(4)
for step in range(3):
    e = e + 0.37
    np.cumsum(e, 0, None, csum)
    tc = torch.tensor(csum)
    log.append(round(float(tc.sum()), 4))
print("ufunc out", log)

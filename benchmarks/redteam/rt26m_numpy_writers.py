# corpus: runnable
# Red team 26m, wave 1: NumPy calls that write an argument or their receiver without an `out=`:
# `np.copyto`, `np.put`, `ndarray.resize`, `ndarray.partition`, `ndarray.byteswap(inplace=True)`,
# `np.random.shuffle`, `Generator.shuffle`, `Generator.permuted(x, out=x)`.
import numpy as np
import torch

torch.set_num_threads(1)
log = []


def spread(v):
    return float(v.max() - v.min()) + float(v[0])


a = np.zeros(4)
for step in range(3):
    np.copyto(a, np.arange(4.0) * step)
    ta = torch.tensor(a)
    log.append(float(ta.sum()) + spread(a))

b = np.zeros(5)
for step in range(3):
    np.put(b, [step], [step + 1.0])
    tb = torch.tensor(b)
    log.append(float(tb.sum()))

c = np.arange(4.0)
for step in range(3):
    c.resize(4 + step, refcheck=False)
    tc = torch.tensor(c)
    log.append(float(tc.numel()))

d = np.array([5.0, 1.0, 4.0, 2.0, 3.0])
for step in range(2):
    d.partition(2)
    td = torch.tensor(d)
    log.append(float(td[0]) + spread(d))
    d[0] = 9.0

e = np.arange(3, dtype=np.int32)
for step in range(2):
    e.byteswap(inplace=True)
    te = torch.tensor(e.astype(np.int64))
    log.append(float(te.sum()))

np.random.seed(3)
f = np.arange(6.0)
for step in range(3):
    np.random.shuffle(f)
    tf = torch.tensor(f)
    log.append(float(tf[0]) + spread(f))

rng = np.random.default_rng(4)
g = np.arange(6.0)
for step in range(3):
    rng.shuffle(g)
    tg = torch.tensor(g)
    log.append(float(tg[0]))

h = np.arange(6.0)
for step in range(3):
    rng.permuted(h, out=h)
    th = torch.tensor(h)
    log.append(float(th[0]) + spread(h))
print("numpy writers", log)

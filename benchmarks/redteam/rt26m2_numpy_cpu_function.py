# corpus: runnable
# Red team 26m, wave 2: NumPy preprocessing (cpu-function's ground) of arrays written by an output
# given by position: through an alias of NumPy, an ndarray method's positional `out`
# (`a.clip(lo, hi, a)`, `a.cumsum(0, None, b)`), `np.matmul(a, b, c)`, `np.ndarray.fill(a, v)`.
import numpy
import numpy as onp
import torch

torch.set_num_threads(1)
log = []


def standardise(v):
    return (v - v.mean()) / (v.std() + 1.0)


a = onp.linspace(0.0, 1.0, 6)
for step in range(3):
    onp.multiply(a, 1.5, a)
    feats = standardise(a)
    log.append(round(float(feats.sum() + a.sum()), 4))

b = numpy.linspace(-2.0, 2.0, 5)
for step in range(3):
    b.clip(-1.0 + 0.2 * step, 1.0, b)
    fb = numpy.log1p(numpy.abs(b))
    log.append(round(float(fb.sum()), 4))

c = numpy.arange(4.0)
run = numpy.zeros(4)
for step in range(3):
    c = c + 1.0
    c.cumsum(0, None, run)
    fr = standardise(run) + run.max()
    log.append(round(float(fr.sum()), 4))

m = numpy.eye(2)
acc = numpy.ones((2, 2))
for step in range(3):
    numpy.matmul(acc, m * 2.0, acc)
    fm = numpy.sqrt(acc)
    log.append(round(float(fm.sum()), 4))

z = numpy.zeros(3)
for step in range(3):
    numpy.ndarray.fill(z, float(step))
    fz = numpy.exp(z)
    log.append(round(float(fz.sum()), 4))
print("numpy cpu-function", log)

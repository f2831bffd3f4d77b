# corpus: runnable
# Preprocessing helpers called per batch whose result is not a function of their arguments:
# `functools.lru_cache` returning one array the caller changes, a helper drawing from `random`,
# a helper reading a class attribute another method changes, a closure's counter, a helper
# reading `os.environ`, a generator-backed helper.
import functools
import itertools
import os
import random
import numpy as np
import torch

torch.set_num_threads(1)
random.seed(0)
np.random.seed(0)
data = np.random.rand(4, 3)


@functools.lru_cache(maxsize=None)
def table(n):
    return np.arange(float(n))


out = []
for epoch in range(3):
    t = table(3)
    feats = data[:, :3] * t
    t += 1
    out.append(round(float(feats.sum()), 5))
print("A lru", out)


def noisy(a):
    return a + random.random()


out = []
for epoch in range(3):
    f = noisy(data)
    out.append(round(float(f.sum()), 5))
print("B random", out)


class Norm:
    scale = 1.0

    def bump(self):
        Norm.scale *= 2

    def apply(self, a):
        return a * Norm.scale


nm = Norm()
out = []
for epoch in range(3):
    f = nm.apply(data)
    out.append(round(float(f.sum()), 5))
    nm.bump()
print("C class attr", out)

tick = itertools.count()


def with_step(a):
    return a + next(tick)


out = []
for epoch in range(3):
    f = with_step(data)
    out.append(round(float(f.sum()), 5))
print("D count", out)

out = []
for epoch in range(3):
    os.environ["RT18_SCALE"] = str(epoch + 1)
    f = data * float(os.environ["RT18_SCALE"])
    out.append(round(float(f.sum()), 5))
print("E environ", out)


def gen():
    k = 0
    while True:
        k += 1
        yield k


g = gen()
out = []
for epoch in range(3):
    f = np.power(data, next(g))
    out.append(round(float(f.sum()), 5))
print("F generator", out)

out = []
for epoch in range(3):
    f = np.random.permutation(data)[:1]
    out.append(round(float(f.sum()), 5))
print("G permutation", out)

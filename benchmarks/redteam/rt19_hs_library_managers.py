# corpus: runnable
# Training loops with `.item()` running totals inside context managers from libraries or inherited
# from them, each of which swallows the error a bad batch raises: `pytest.raises`,
# `numpy.testing.assert_raises`, `unittest.TestCase().assertRaises`, `contextlib.suppress` reached
# through a module alias, a program class deriving from `contextlib.suppress`, a program class
# inheriting a swallowing `__exit__` from another program class, and a `@contextmanager` whose
# `finally` returns.
import contextlib
import contextlib as ctx
import unittest

import numpy.testing
import pytest
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]


class BadBatch(Exception):
    pass


def step(i, x, y):
    loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if i == 2:
        raise BadBatch(i)
    return loss


class Quiet(contextlib.suppress):
    pass


class Tolerant:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return kind is not None and issubclass(kind, BadBatch)


class Tolerant2(Tolerant):
    pass


@contextlib.contextmanager
def always_finish():
    try:
        yield
    finally:
        return


a = 0.0
with pytest.raises(BadBatch):
    for i, (x, y) in enumerate(batches):
        a += step(i, x, y).item()
print("A", repr(a), type(a).__name__)

b = 0.0
with numpy.testing.assert_raises(BadBatch):
    for i, (x, y) in enumerate(batches):
        b += step(i, x, y).item()
print("B", repr(b), type(b).__name__)

c = 0.0
with unittest.TestCase().assertRaises(BadBatch):
    for i, (x, y) in enumerate(batches):
        c += step(i, x, y).item()
print("C", repr(c), type(c).__name__)

d = 0.0
with ctx.suppress(BadBatch):
    for i, (x, y) in enumerate(batches):
        d += step(i, x, y).item()
print("D", repr(d), type(d).__name__)

e = 0.0
with Quiet(BadBatch):
    for i, (x, y) in enumerate(batches):
        e += step(i, x, y).item()
print("E", repr(e), type(e).__name__)

f = 0.0
with Tolerant2():
    for i, (x, y) in enumerate(batches):
        f += step(i, x, y).item()
print("F", repr(f), type(f).__name__)

g = 0.0
with always_finish():
    for i, (x, y) in enumerate(batches):
        g += step(i, x, y).item()
print("G", repr(g), type(g).__name__)

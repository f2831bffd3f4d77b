# corpus: runnable
# Evaluation-looking loops whose gradient work hides behind callables: a lambda stored in a dict,
# `functools.partial(torch.autograd.backward)`, `operator.methodcaller("backward")`, a decorator
# that back-propagates what the function returns, a context manager whose `__exit__` calls backward,
# `getattr(loss, "backward")`, `map(torch.Tensor.backward, ...)`.
import contextlib
import functools
import operator

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
model.eval()
xs = torch.randn(3, 4, 3)
ops = {"bw": lambda l: l.backward()}


def grads():
    return round(model.weight.grad.abs().sum().item(), 5) if model.weight.grad is not None else None


for x in xs:
    loss = model(x).pow(2).mean()
    ops["bw"](loss)
print("dict lambda", grads())

model.zero_grad()
bw = functools.partial(torch.autograd.backward)
for x in xs:
    loss = model(x).pow(2).mean()
    bw(loss)
print("partial", grads())

model.zero_grad()
call_bw = operator.methodcaller("backward")
for x in xs:
    loss = model(x).pow(2).mean()
    call_bw(loss)
print("methodcaller", grads())


def backprop(fn):
    @functools.wraps(fn)
    def inner(*a):
        r = fn(*a)
        r.backward()
        return r
    return inner


@backprop
def score(x):
    return model(x).pow(2).mean()


model.zero_grad()
for x in xs:
    s = score(x)
print("decorated", grads())


@contextlib.contextmanager
def backward_after(box):
    yield box
    box[0].backward()


model.zero_grad()
for x in xs:
    with backward_after([None]) as box:
        box[0] = model(x).pow(2).mean()
print("context manager", grads())

model.zero_grad()
for x in xs:
    loss = model(x).pow(2).mean()
    getattr(loss, "back" + "ward")()
print("getattr", grads())

model.zero_grad()
for x in xs:
    loss = model(x).pow(2).mean()
    list(map(torch.Tensor.backward, [loss]))
print("map", grads())

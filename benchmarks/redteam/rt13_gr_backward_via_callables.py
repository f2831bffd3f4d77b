# corpus: runnable
# A running loss total (`total += loss`) back-propagated after the loop by code the check must follow:
# a lambda in a dict, a `functools.partial`, a decorator-wrapped helper, `operator.methodcaller`,
# a context manager's exit.
import contextlib
import functools
import operator

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
xs = torch.randn(3, 4, 3)
steps = {"bw": lambda t: t.backward()}

total = 0
for x in xs:
    loss = model(x).pow(2).mean()
    total += loss
steps["bw"](total)
print("dict", round(model.weight.grad.abs().sum().item(), 5))

model.zero_grad()
run = 0
for x in xs:
    loss = model(x).pow(2).mean()
    run = run + loss
functools.partial(torch.autograd.backward, run)()
print("partial", round(model.weight.grad.abs().sum().item(), 5))

model.zero_grad()
acc = 0.0
for x in xs:
    loss = model(x).pow(2).mean()
    acc += loss
operator.methodcaller("backward")(acc)
print("methodcaller", round(model.weight.grad.abs().sum().item(), 5))


@contextlib.contextmanager
def stepping(box):
    yield box
    box["t"].backward()


model.zero_grad()
with stepping({}) as box:
    s = 0
    for x in xs:
        loss = model(x).pow(2).mean()
        s += loss
    box["t"] = s
print("context", round(model.weight.grad.abs().sum().item(), 5))


def finish(fn):
    def inner(t):
        fn(t)
        t.backward()
    return inner


@finish
def log(t):
    pass


model.zero_grad()
m = 0
for x in xs:
    loss = model(x).pow(2).mean()
    m += loss
log(m)
print("decorator", round(model.weight.grad.abs().sum().item(), 5))

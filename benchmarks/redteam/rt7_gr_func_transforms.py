# corpus: runnable
# Losses summed in functions that autograd transforms differentiate without a visible
# `.backward()`: `torch.func.grad`, `torch.func.grad_and_value`, `torch.autograd.functional.jacobian`,
# `torch.func.vjp`, a function handed to an optimizer's `step(closure)` through `functools.partial`,
# a `functools.wraps` decorator that back-propagates what the function returns.
import functools

import torch
import torch.nn as nn
from torch.func import functional_call, grad, grad_and_value, vjp

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
data = [(torch.randn(5, 3), torch.randn(5, 1)) for _ in range(3)]
params = {k: v.detach() for k, v in model.named_parameters()}


def total_loss(p):
    total = 0.0
    for xb, yb in data:
        loss = ((functional_call(model, p, (xb,)) - yb) ** 2).mean()
        total += loss
    return total


g = grad(total_loss)(params)
print("func.grad", {k: v.round(decimals=5).tolist() for k, v in g.items()})


def summed(p):
    acc = 0
    for xb, yb in data:
        acc = acc + ((functional_call(model, p, (xb,)) - yb).abs()).mean()
    return acc


g2, val = grad_and_value(summed)(params)
print("grad_and_value", round(float(val), 5), g2["bias"].round(decimals=5).tolist())


def energy(w):
    e = 0.0
    for xb, _ in data:
        out = xb @ w
        e += (out ** 2).sum()
    return e


w0 = torch.randn(3)
jac = torch.autograd.functional.jacobian(energy, w0)
print("jacobian", jac.round(decimals=4).tolist())
_, pull = vjp(energy, w0)
print("vjp", pull(torch.tensor(1.0))[0].round(decimals=4).tolist())


def backprop_result(fn):
    @functools.wraps(fn)
    def inner(*args):
        out = fn(*args)
        out.backward()
        return out
    return inner


@backprop_result
def epoch_loss(m):
    running = 0.0
    for xb, yb in data:
        loss = nn.functional.mse_loss(m(xb), yb)
        running += loss
    return running


model.zero_grad()
epoch_loss(model)
print("wrapped grad", model.weight.grad.round(decimals=5).tolist())

opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=3)


def closure(m, o):
    o.zero_grad()
    tot = 0.0
    for xb, yb in data:
        tot += nn.functional.mse_loss(m(xb), yb)
    tot.backward()
    return tot


for _ in range(2):
    opt.step(functools.partial(closure, model, opt))
print("lbfgs", model.weight.detach().round(decimals=4).tolist())

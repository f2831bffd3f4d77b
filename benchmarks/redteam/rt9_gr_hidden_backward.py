# corpus: runnable
# Summed losses back-propagated through names the analysis does not see as the sum: a helper
# reading it with `globals()`, `getattr(total, "backward")`, `operator.methodcaller`, a
# `match` statement, a decorator that back-propagates what the step function returns.
import functools
import operator

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
net = nn.Linear(3, 1)
batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]


def flush():
    globals()["epoch_loss"].backward()


epoch_loss = 0.0
for x, y in batches:
    epoch_loss += nn.functional.mse_loss(net(x), y)
flush()
print("globals", net.weight.grad.tolist())
net.zero_grad()

total = 0.0
for x, y in batches:
    total = total + nn.functional.l1_loss(net(x), y)
getattr(total, "backward")()
print("getattr", net.weight.grad.tolist())
net.zero_grad()

acc = 0
for x, y in batches:
    acc += (net(x) - y).pow(2).mean()
operator.methodcaller("backward")(acc)
print("methodcaller", net.bias.grad.tolist())
net.zero_grad()

running = 0.0
for x, y in batches:
    running += nn.functional.smooth_l1_loss(net(x), y)
match running:
    case torch.Tensor() if running.requires_grad:
        running.backward()
    case _:
        pass
print("match", net.weight.grad.tolist())
net.zero_grad()


def backprop(fn):
    @functools.wraps(fn)
    def run(*a):
        out = fn(*a)
        out.backward()
        return out
    return run


@backprop
def epoch(data):
    s = 0
    for x, y in data:
        s += nn.functional.mse_loss(net(x), y)
    return s


print("decorated", round(epoch(batches).item(), 5), net.weight.grad.tolist())

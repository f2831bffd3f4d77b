# corpus: runnable
# Summed and kept losses that are back-propagated after the loop through spellings other than
# `.backward()` on the name: `torch.autograd.backward`, `torch.autograd.grad`, a bound method
# taken from the total, `getattr`, a functools.partial, a helper of a dispatch table.
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3, 3)


def fresh():
    torch.manual_seed(1)
    return nn.Linear(3, 1)


model = fresh()
total = 0.0
for x in xs:
    loss = model(x).pow(2).mean()
    total += loss
torch.autograd.backward(total)
print("autograd.backward", round(model.weight.grad.sum().item(), 4))

model = fresh()
kept = []
for x in xs:
    kept.append(model(x).abs().mean())
(g,) = torch.autograd.grad(torch.stack(kept).sum(), [model.bias])
print("autograd.grad", round(g.item(), 4))

model = fresh()
run = 0
for x in xs:
    run = run + model(x).pow(2).sum()
finish = run.backward
finish()
print("bound", round(model.weight.grad.abs().sum().item(), 4))

model = fresh()
acc = 0.0
for x in xs:
    acc += model(x).mean()
getattr(acc, "backward")()
print("getattr", round(model.bias.grad.item(), 4))

model = fresh()
s = 0.0
for x in xs:
    s += model(x).sum()
go = functools.partial(torch.autograd.backward, s)
go()
print("partial", round(model.weight.grad.sum().item(), 4))

model = fresh()
TABLE = {"bp": lambda t: t.backward()}
z = 0.0
for x in xs:
    z += model(x).pow(2).mean()
TABLE["bp"](z)
print("table", round(model.weight.grad.sum().item(), 4))

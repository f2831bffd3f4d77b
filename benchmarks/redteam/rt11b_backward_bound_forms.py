# corpus: runnable
# Sums of loops without a backward inside, back-propagated after them through forms the first
# fix may not follow: the autograd function bound to a name and called, a bound backward kept in
# a list, `operator.methodcaller("backward")`, `getattr(torch.autograd, "backward")`.
import operator

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
    total += model(x).pow(2).mean()
bw = torch.autograd.backward
bw(total)
print("bound function", round(model.weight.grad.sum().item(), 4))

model = fresh()
run = 0.0
for x in xs:
    run += model(x).sum()
todo = [run.backward]
for step in todo:
    step()
print("list", round(model.bias.grad.item(), 4))

model = fresh()
s = 0.0
for x in xs:
    s += model(x).abs().mean()
operator.methodcaller("backward")(s)
print("methodcaller", round(model.weight.grad.abs().sum().item(), 4))

model = fresh()
z = 0.0
for x in xs:
    z += model(x).pow(2).sum()
getattr(torch.autograd, "backward")(z)
print("getattr module", round(model.weight.grad.sum().item(), 4))

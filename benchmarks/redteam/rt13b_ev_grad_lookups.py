# corpus: runnable
# Wave 2: evaluation-looking loops reaching backward through lookups: `getattr(torch.Tensor,
# "backward")(loss)`, `type(loss).backward(loss)`, `operator.methodcaller("backward")`, a lambda
# bound to a name, and one reading `out.requires_grad` through `getattr`.
import operator

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
model.eval()
xs = torch.randn(3, 4, 3)


def grads():
    return round(model.weight.grad.abs().sum().item(), 5) if model.weight.grad is not None else None


model.zero_grad()
for x in xs:
    loss = model(x).pow(2).mean()
    getattr(torch.Tensor, "backward")(loss)
print("getattr literal", grads())

model.zero_grad()
for x in xs:
    loss = model(x).pow(2).mean()
    type(loss).backward(loss)
print("type()", grads())

model.zero_grad()
for x in xs:
    loss = model(x).pow(2).mean()
    operator.methodcaller("backward")(loss)
print("methodcaller", grads())

flags = []
for x in xs:
    out = model(x)
    flags.append(getattr(out, "requires_grad"))
print("flags", flags)

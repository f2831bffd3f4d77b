# corpus: runnable
# Monkeypatching in the same file, above the code it changes: a method replaced on the class
# after its definition (the replacement changes a global), a module function replaced by a
# lambda, `torch.Tensor.item` wrapped to round, a builtin replaced.
import builtins

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)


class Meter:
    def update(self, x):
        return x.sum()


def _update(self, x):
    hist.add_(x)
    return x.sum()


Meter.update = _update
meter = Meter()
rows = []
for epoch in range(3):
    hist = torch.zeros(3)
    for x in xs:
        meter.update(x)
    rows.append(round(hist.sum().item(), 4))
print("patched method", rows)


def record(x):
    return x


record = lambda x: acc.add_(x)  # noqa: E731
rows = []
for epoch in range(3):
    acc = torch.zeros(3)
    for x in xs:
        record(x)
    rows.append(round(acc.sum().item(), 4))
print("patched function", rows)

_item = torch.Tensor.item
torch.Tensor.item = lambda self: round(_item(self), 1)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0.0
for x in xs:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
torch.Tensor.item = _item
print("rounded items", repr(total))

_float = builtins.float
builtins.float = lambda v: round(_float(v), 2)
vals = []
for x in xs:
    loss = model(x).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    vals.append(float(loss))
builtins.float = _float
print("builtin float", vals)

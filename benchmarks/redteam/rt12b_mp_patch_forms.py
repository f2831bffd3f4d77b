# corpus: runnable
# Wave 2, against the "library function replaced" refusal: torch patched by `setattr(torch, ...)`,
# through `vars(torch)[...]`, under another alias (`import torch as T`), through `from torch import
# Tensor`, a dunder of Tensor (`__float__`), the builtins module under an alias.
import builtins as B

import torch
import torch as T
from torch import Tensor

torch.set_num_threads(1)
x = torch.randn(5, 4)

_stack = torch.stack
vars(torch)["stack"] = lambda ts, dim=0: _stack(ts, dim) + 100
vals = []
for row in x:
    vals.append(row.sum().item())
a = torch.tensor(vals)
vars(torch)["stack"] = _stack
print("vars", [round(v, 4) for v in a.tolist()])

setattr(T, "stack", lambda ts, dim=0: _stack(ts, dim) * 2)
vals = []
for row in x:
    vals.append(row.mean().item())
b = torch.tensor(vals)
T.stack = _stack
print("setattr", [round(v, 4) for v in b.tolist()])

counts = torch.tensor([[3, -1, 9], [12, 0, -4]])
_relu = T.relu
T.relu = lambda t: t.clamp(0, 6)
h = counts * (counts > 0)
T.relu = _relu
print("alias", h.tolist())

_item = Tensor.item
Tensor.item = lambda self: round(_item(self), 1)
vals = []
for row in x:
    vals.append(row.max().item())
c = torch.tensor(vals)
Tensor.item = _item
print("from import", c.tolist())

_sum = B.sum
B.sum = lambda it, start=0: round(_sum(it, start), 1)
print("builtins", sum([0.123, 0.456]))
B.sum = _sum

# corpus: runnable
# Data a factory reads changed in place through another name each step: a slice assigned
# (`view[:] = ...`), `.copy_` into a view, `torch.add(..., out=)`, `np.multiply(..., out=)` on a
# view of the array, `torch.index_put_`, an `nn.Module` buffer registered from the tensor.
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
src = torch.zeros(4)
view = src[1:3]
out = []
for i in range(3):
    t = torch.tensor(src.tolist())
    view[:] = float(i + 1)
    out.append(t.tolist())
print("slice assign", out)

src2 = torch.zeros(3)
alias = src2.view(3)
out = []
for i in range(3):
    t = torch.tensor(src2.tolist())
    alias.copy_(torch.full((3,), float(i)))
    out.append(t.tolist())
print("copy_ via view", out)

acc = torch.zeros(2)
out = []
for i in range(3):
    t = torch.tensor(acc.tolist())
    torch.add(acc, 1.0, out=acc)
    out.append(t.tolist())
print("out=", out)

arr = np.ones(4)
part = arr[:2]
out = []
for i in range(3):
    t = torch.tensor(arr)
    np.multiply(part, 2.0, out=part)
    out.append(t.tolist())
print("np out= view", out)

tab = torch.zeros(3)
out = []
for i in range(3):
    t = torch.tensor(tab.tolist())
    tab.index_put_((torch.tensor([i]),), torch.tensor(5.0))
    out.append(t.tolist())
print("index_put_", out)


class Holder(nn.Module):
    def __init__(self, t):
        super().__init__()
        self.register_buffer("b", t)

    def forward(self):
        self.b.mul_(2)
        return self.b


base = torch.ones(2)
h = Holder(base)
out = []
for i in range(3):
    t = torch.tensor(base.tolist())
    h()
    out.append(t.tolist())
print("buffer", out)

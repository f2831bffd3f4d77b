# corpus: runnable
# In-place writes reaching a tensor through aliases the loop spells differently: `.data`,
# `x[:]`, `.view(-1)`, `.T`, `.unbind()[0]`, `torch.split(...)[0]`, `.diagonal()`, `.numpy()` then
# a NumPy in-place op, `.untyped_storage()`, `torch.utils.dlpack`, `.narrow()`, `.expand` read.
import numpy as np
import torch
from torch.utils import dlpack

torch.set_num_threads(1)
base = torch.ones(2, 2)
rows = []
for step in range(3):
    t = torch.tensor(base.tolist())
    base.T[0].add_(1)
    rows.append(t.sum().item())
print("T", rows)

b2 = torch.ones(4)
out2 = []
for step in range(3):
    t = torch.tensor(b2.tolist())
    torch.split(b2, 2)[0].mul_(2)
    out2.append(t.sum().item())
print("split", out2)

b3 = torch.ones(3, 3)
out3 = []
for step in range(3):
    t = b3.sum(0).clone()
    b3.diagonal().add_(1)
    out3.append(t.tolist())
print("diagonal", out3)

b4 = torch.ones(3)
arr = b4.numpy()
out4 = []
for step in range(3):
    t = torch.tensor(b4.tolist())
    np.add(arr, 1, out=arr)
    out4.append(t.tolist())
print("numpy out", out4)

b5 = torch.ones(3)
out5 = []
for step in range(3):
    t = torch.tensor(b5.tolist())
    dlpack.from_dlpack(b5).add_(2)
    out5.append(t.tolist())
print("dlpack", out5)

b6 = torch.ones(2, 3)
out6 = []
for step in range(3):
    t = torch.tensor(b6.tolist())
    b6.unbind(0)[1].sub_(1)
    out6.append(t.sum().item())
print("unbind", out6)

b7 = torch.ones(4)
out7 = []
for step in range(3):
    t = torch.tensor(b7.tolist())
    b7.narrow(0, 1, 2).mul_(3)
    out7.append(t.tolist())
print("narrow", out7)

b8 = torch.zeros(3)
out8 = []
for step in range(3):
    t = torch.tensor(b8.tolist())
    torch.frombuffer(b8.numpy(), dtype=torch.float32).add_(1)
    out8.append(t.tolist())
print("frombuffer", out8)

b9 = torch.zeros(4)
out9 = []
for step in range(3):
    t = torch.tensor(b9.tolist())
    b9.unflatten(0, (2, 2))[0].add_(1)
    out9.append(t.tolist())
print("unflatten", out9)

b10 = torch.zeros(2)
out10 = []
for step in range(3):
    t = torch.tensor(b10.tolist())
    b10.as_strided((1,), (1,)).add_(5)
    out10.append(t.tolist())
print("as_strided", out10)

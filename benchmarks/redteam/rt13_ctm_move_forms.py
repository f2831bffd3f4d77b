# corpus: runnable
# Tensors created on the host then moved, where `device=` at creation is not the same program:
# `torch.tensor(t)` of a tensor (a copy) then `.to(device)` with the original changed later,
# `.to(device, dtype)` on an integer factory, `torch.arange` with a float step, `.to(ref)` taking a
# dtype, `torch.as_tensor` of a NumPy array that changes later, a factory with `out=`.
import numpy as np
import torch

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
arr = np.arange(4, dtype=np.float32)
shared = torch.as_tensor(arr).to(device)
arr += 10
print("as_tensor", shared.tolist())

ref = torch.zeros(1, dtype=torch.float64, device=device)
a = torch.arange(3).to(ref)
print("to ref", a.dtype, a.tolist())

b = torch.arange(0, 1, 0.25).to(device, torch.float16)
print("arange", b.dtype, b.tolist())

out = torch.empty(3)
c = torch.zeros(3, out=out).to(device)
out.add_(1)
print("out=", c.tolist())

d = torch.from_numpy(arr).to(device)
arr *= 2
print("from_numpy", d.tolist())

e = torch.zeros(2).to(device=device, dtype=torch.int32)
print("to kw dtype", e.dtype)

f = torch.ones(2, dtype=torch.bool).to(device).to(torch.float32)
print("bool", f.tolist())

g = torch.ones(2, requires_grad=True).to(device)
print("leaf", g.is_leaf, g.requires_grad)

# corpus: runnable
# Lists turned into tensors where `torch.stack` is not the same: the list read by a later
# callback after the conversion, elements that are 0-d integer tensors of mixed dtypes, items that
# are `requires_grad` tensors (`torch.tensor` detaches, `stack` keeps the graph), a list that a
# generator appends to while it is converted.
import torch

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
xs = torch.arange(12, dtype=torch.float32).reshape(4, 3).to(device)

parts = []
for x in xs:
    parts.append(x.sum().to(torch.int32))
t = torch.tensor(parts)
print("int32 items", t.dtype, t.tolist())

w = torch.ones(3, requires_grad=True, device=device)
items = []
for x in xs:
    items.append((x * w).sum())
u = torch.tensor(items)
print("grad items", u.requires_grad, u.tolist())

mixed = []
for i, x in enumerate(xs):
    mixed.append(x.sum().half() if i % 2 else x.sum().double())
m = torch.tensor(mixed)
print("mixed", m.dtype, m.tolist())

vals = []
for x in xs:
    vals.append(x.max())
v = torch.tensor(vals, dtype=torch.float16)
print("dtype kw", v.dtype, v.tolist())

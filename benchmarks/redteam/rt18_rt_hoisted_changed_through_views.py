# corpus: runnable
# Tensors built in the loop from constants and then changed in place through another name: a
# view, a slice, `.T`, `expand` + `clone`, `torch.add(..., out=)`, `nn.init`, `copy_`, `.data`,
# `.grad` accumulated across iterations, `unsqueeze_`. Built once before the loop, every change
# would carry into the next iteration.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
xs = [torch.randn(3) for _ in range(4)]

res = []
for x in xs:
    w = torch.ones(3)
    v = w.view(3, 1)
    v += x.view(3, 1)
    res.append(round(w.sum().item(), 4))
print("A view", res)

res = []
for x in xs:
    m = torch.zeros(2, 3)
    row = m[0]
    row.add_(x)
    res.append(round(m.sum().item(), 4))
print("B slice", res)

res = []
for x in xs:
    g = torch.eye(3)
    g.T[0].mul_(2)
    res.append(round(g.sum().item(), 4))
print("C transpose", res)

res = []
for x in xs:
    acc = torch.zeros(3)
    torch.add(acc, x, out=acc)
    res.append(round(acc.sum().item(), 4))
print("D out=", res)

res = []
for x in xs:
    b = torch.empty(3, 3)
    nn.init.constant_(b, 0.5)
    b[0] += x
    res.append(round(b.sum().item(), 4))
print("E init", res)

res = []
for x in xs:
    p = torch.zeros(3, requires_grad=True)
    (p * x).sum().backward()
    res.append([round(u, 4) for u in p.grad.tolist()])
print("F grad", res)

res = []
for x in xs:
    q = torch.full((3,), 2.0)
    q.data.mul_(x.abs() + 1)
    res.append(round(q.sum().item(), 4))
print("G data", res)

res = []
for x in xs:
    s = torch.zeros(3)
    s.unsqueeze_(0)
    res.append(tuple(s.shape))
print("H unsqueeze_", res)

res = []
for x in xs:
    base = torch.tensor([1.0, 2.0, 3.0])
    other = base.numpy()
    other[0] += x[0].item()
    res.append(round(base[0].item(), 4))
print("I numpy alias", res)

# corpus: runnable
# Evaluation loops that take gradients through renamed imports and transforms:
# `from torch.autograd import grad as dfdx`, `import torch.autograd as ag`, `torch.func.grad`,
# `torch.func.vmap(torch.func.jacrev(f))`, `torch.autograd.functional.jacobian`, and a Hessian
# vector product with `create_graph=True`.
import torch
import torch.autograd as ag
import torch.nn as nn
from torch.autograd import grad as dfdx
from torch.func import grad as fgrad
from torch.func import jacrev, vmap

torch.manual_seed(0)
torch.set_num_threads(1)
net = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1)).eval()
pts = torch.randn(3, 5, 2)
a = []
for p in pts:
    p = p.clone().requires_grad_(True)
    u = net(p)
    (g,) = dfdx(u.sum(), p)
    a.append(round(g.abs().sum().item(), 5))
print("grad alias", a)

b = []
for p in pts:
    p = p.clone().requires_grad_(True)
    u = net(p)
    b.append(round(ag.grad(u.sum(), p)[0].sum().item(), 5))
print("module alias", b)


def f(x):
    return net(x).sum()


c = []
for p in pts:
    c.append(round(fgrad(f)(p).sum().item(), 5))
print("func.grad", c)

d = []
for p in pts:
    j = vmap(jacrev(lambda x: net(x)))(p)
    d.append(round(j.sum().item(), 5))
print("vmap jacrev", d)

e = []
for p in pts:
    jac = torch.autograd.functional.jacobian(lambda x: net(x).sum(0), p[0])
    e.append(round(jac.sum().item(), 5))
print("functional.jacobian", e)

h = []
v = torch.ones(2)
for p in pts:
    x = p[0].clone().requires_grad_(True)
    y = net(x).sum()
    (gx,) = torch.autograd.grad(y, x, create_graph=True)
    (hv,) = torch.autograd.grad(gx @ v, x)
    h.append(round(hv.sum().item(), 5))
print("hvp", h)

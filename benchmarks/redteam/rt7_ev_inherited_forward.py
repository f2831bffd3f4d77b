# corpus: runnable
# Evaluation loops over models whose autograd use is not in their own `forward`: a base class's
# forward, a mixin method forward calls, a method reached through `super()`, `__call__`
# overridden, a forward assigned as a class attribute after the class, a decorator on forward.
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
points = [torch.randn(3, 2) for _ in range(3)]


class ForceMixin:
    def forces(self, x):
        x = x.requires_grad_(True)
        energy = self.energy(x).sum()
        (g,) = torch.autograd.grad(energy, x, create_graph=True)
        return -g


class Potential(ForceMixin, nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def energy(self, x):
        return self.net(x)

    def forward(self, x):
        return self.forces(x)


pot = Potential().to(device)
res = []
for p in points:
    res.append(pot(p.clone().to(device)).abs().sum().item())
print("mixin", [round(v, 5) for v in res])


class Base(nn.Module):
    def forward(self, x):
        h = self.body(x)
        h.retain_grad()
        self.kept = h
        return h.sum(dim=1)


class Child(Base):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(2, 3)

    def forward(self, x):
        return super().forward(x) * 2


child = Child().to(device)
sums = []
for p in points:
    out = child(p.to(device))
    sums.append(out.sum())
torch.stack(sums).sum().backward()
print("super", child.kept.grad is not None, child.body.weight.grad.round(decimals=4).tolist())


class Tracked(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    def __call__(self, x):
        out = super().__call__(x)
        out.register_hook(lambda g: self.grads.append(g.sum().item()))
        return out

    def forward(self, x):
        return self.fc(x)


tr = Tracked().to(device)
tr.grads = []
outs = []
for p in points:
    outs.append(tr(p.to(device)))
torch.cat(outs).pow(2).sum().backward()
print("__call__", [round(v, 5) for v in tr.grads])


def keep_input_grad(fn):
    @functools.wraps(fn)
    def inner(self, x):
        x = x.detach().requires_grad_(True)
        self.inp = x
        return fn(self, x)
    return inner


class Saliency(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)

    @keep_input_grad
    def forward(self, x):
        return self.fc(x)


sal = Saliency().to(device)
maps = []
for p in points:
    score = sal(p.to(device)).sum()
    maps.append(sal.inp)
    last = score
last.backward()
print("decorated", maps[-1].grad.round(decimals=4).tolist())


def spectral_forward(self, x):
    x = x.detach().requires_grad_(True)
    y = self.fc(x).sum()
    (g,) = torch.autograd.grad(y, x)
    return g


class Late(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)


Late.forward = spectral_forward
late = Late().to(device)
gs = []
for p in points:
    gs.append(late(p.to(device)).sum().item())
print("assigned forward", [round(v, 5) for v in gs])

# corpus: runnable
# Evaluation loops (model.eval(), no backward in the loop, outputs only summed as numbers)
# whose model needs autograd inside its own forward: an intermediate that calls
# `retain_grad()`, a tensor hook registered in forward, a physics-informed net that takes
# the derivative of its output with `torch.autograd.grad`, an input-gradient penalty.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Probe(nn.Module):
    """Keeps the hidden activation's gradient for a later saliency plot."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)
        self.hidden = None

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        h.retain_grad()
        self.hidden = h
        return self.fc2(h)


class Tapped(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 4)
        self.head = nn.Linear(4, 1)
        self.grads = []

    def forward(self, x):
        z = self.body(x)
        z.register_hook(lambda g: self.grads.append(g.norm().item()))
        return self.head(torch.relu(z))


class PINN(nn.Module):
    """u(t) with its residual du/dt + u computed in forward."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, t):
        t = t.clone().requires_grad_(True)
        u = self.net(t)
        du = torch.autograd.grad(u.sum(), t, create_graph=True)[0]
        return du + u


data = [torch.randn(6, 4) for _ in range(3)]

probe = Probe().to(device)
probe.eval()
score = 0.0
for x in data:
    out = probe(x.to(device))
    score += out.softmax(-1)[:, 0].sum().item()
print("probe", round(score, 5))

tapped = Tapped().to(device)
tapped.eval()
total = 0.0
for x in data:
    y = tapped(x.to(device))
    total += y.sum().item()
print("tapped", round(total, 5))

pinn = PINN().to(device)
pinn.eval()
ts = [torch.linspace(0, 1, 5).unsqueeze(1) * (k + 1) for k in range(3)]
residual = 0.0
for t in ts:
    r = pinn(t.to(device))
    residual += r.pow(2).mean().item()
print("residual", round(residual, 5))

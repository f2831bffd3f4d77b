import torch
import torch.nn as nn


class PINN(nn.Module):
    """u'(t) = u(t): the residual needs du/dt, so forward differentiates its own input."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, t):
        t = t.requires_grad_(True)
        u = self.net(t)
        du = torch.autograd.grad(u.sum(), t, create_graph=True)[0]
        return du - u


class Probe(nn.Module):
    """Keeps the gradient of its hidden state for a later saliency plot."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.hidden = None

    def forward(self, x):
        h = self.fc(x)
        h.retain_grad()
        self.hidden = h
        return h.tanh()


class Plain(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x).softmax(-1)

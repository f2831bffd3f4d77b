# corpus: runnable
"""A RealNVP normalizing flow on two-moons: affine coupling layers with alternating binary
masks, a standard-normal prior, maximum-likelihood training, and sampling at the end."""
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def two_moons(n):
    t = np.random.rand(n) * np.pi
    upper = np.random.rand(n) < 0.5
    x = np.where(upper, np.cos(t), 1 - np.cos(t))
    y = np.where(upper, np.sin(t), 0.5 - np.sin(t))
    return (np.stack([x, y], 1) + 0.05 * np.random.randn(n, 2)).astype(np.float32)


class Coupling(nn.Module):
    def __init__(self, parity, hidden=32):
        super().__init__()
        self.parity = parity
        self.s = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 2))
        self.t = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, x):
        mask = torch.tensor([1.0, 0.0] if self.parity else [0.0, 1.0], device=x.device)  # paef: expect redundant-tensor
        xm = x * mask
        s = self.s(xm) * (1 - mask)
        z = xm + (1 - mask) * (x * torch.exp(s) + self.t(xm))
        return z, s.sum(1)

    def inverse(self, z):
        mask = torch.tensor([1.0, 0.0] if self.parity else [0.0, 1.0], device=z.device)  # paef: ok redundant-tensor
        zm = z * mask
        s = self.s(zm) * (1 - mask)
        return zm + (1 - mask) * (z - self.t(zm)) * torch.exp(-s)


class RealNVP(nn.Module):
    def __init__(self, n_layers=4):
        super().__init__()
        self.layers = nn.ModuleList([Coupling(i % 2) for i in range(n_layers)])

    def log_prob(self, x):
        log_det = torch.zeros(x.shape[0], device=x.device)  # paef: refuse redundant-tensor
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld
        return -0.5 * (x**2).sum(1) - math.log(2 * math.pi) + log_det

    def sample(self, n):
        z = torch.randn(n, 2, device=next(self.parameters()).device)
        for layer in reversed(self.layers):
            z = layer.inverse(z)
        return z


data = torch.from_numpy(two_moons(1024)).to(device)
flow = RealNVP().to(device)
optimizer = torch.optim.Adam(flow.parameters(), lr=5e-3)
for it in range(120):
    idx = torch.randint(0, data.shape[0], (128,), device=device)
    loss = -flow.log_prob(data[idx]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if it % 40 == 0:
        print(f"iter {it} nll {loss.item():.4f}")
with torch.no_grad():
    s = flow.sample(512)
    print(f"sample mean {s.mean(0).cpu().numpy().round(3)} test nll {-flow.log_prob(data[:256]).mean().item():.4f}")

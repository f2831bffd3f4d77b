"""A wide one-hidden-layer MLP (width 4096) whose hidden layer is normalised and activated with
hand-written chains: LayerNorm as mean / variance / rsqrt / affine, GELU as its tanh formula."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class WideMLP(nn.Module):
    def __init__(self, d_in, width, d_out):
        super().__init__()
        self.inp = nn.Linear(d_in, width)
        self.g = nn.Parameter(torch.ones(width))
        self.b = nn.Parameter(torch.zeros(width))
        self.out = nn.Linear(width, d_out)

    def forward(self, x):
        x = self.inp(x)
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)
        h = (x - mu) * torch.rsqrt(var + 1e-5) * self.g + self.b
        h = 0.5 * h * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (h + 0.044715 * h ** 3)))
        return self.out(h)


torch.manual_seed(0)
X = torch.randn(4096, 16)
Y = (X[:, 0] * X[:, 1] > 0).long()
model = WideMLP(16, 4096, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(2):
    for s in range(0, len(X), 256):
        loss = F.cross_entropy(model(X[s:s + 256]), Y[s:s + 256])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

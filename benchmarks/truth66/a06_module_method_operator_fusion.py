"""A wide MLP regressor with a hand-written tanh GELU in a local `nn.Module`."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TanhGELU(nn.Module):
    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3))))


class WideMLP(nn.Module):
    def __init__(self, d_in, hidden):
        super().__init__()
        self.up = nn.Linear(d_in, hidden)
        self.act = TanhGELU()
        self.down = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.down(self.act(self.up(x)))


model = WideMLP(8, 4096)
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
X, Y = torch.randn(30, 128, 8), torch.randn(30, 128, 1)
for epoch in range(2):
    for i in range(len(X)):
        loss = F.mse_loss(model(X[i]), Y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

# corpus: runnable
"""Quantile regression of a heteroscedastic signal with the pinball loss: one network outputs
the 10th, 50th and 90th percentiles, the loss helper builds the quantile levels each time it
is called, monotonicity is enforced by cumulative softplus increments, and interval coverage and
width are measured on a test split."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
QUANTILES = [0.1, 0.5, 0.9]


def pinball_loss(pred, target):
    q = torch.tensor(QUANTILES, device=pred.device)  # paef: expect redundant-tensor
    err = target.unsqueeze(1) - pred
    return torch.max(q * err, (q - 1) * err).mean()


class QuantileNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.base = nn.Linear(64, 1)
        self.incr = nn.Linear(64, len(QUANTILES) - 1)

    def forward(self, x):
        h = self.body(x)
        return torch.cat([self.base(h), self.base(h) + torch.cumsum(F.softplus(self.incr(h)), 1)], 1)


x = np.random.uniform(-2, 2, (1500, 1)).astype(np.float32)
y = (np.sin(2 * x[:, 0]) + (0.1 + 0.3 * np.abs(x[:, 0])) * np.random.randn(1500)).astype(np.float32)
train_loader = DataLoader(TensorDataset(torch.from_numpy(x[:1200]), torch.from_numpy(y[:1200])), batch_size=64, shuffle=True)  # paef: ok pageable-transfer
model = QuantileNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=15)
for epoch in range(15):
    model.train()
    losses = []
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = pinball_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach())
    scheduler.step()
    if epoch % 5 == 0:
        print(f"epoch {epoch} pinball {torch.stack(losses).mean().item():.4f}")

model.eval()
with torch.no_grad():
    xt, yt = torch.from_numpy(x[1200:]).to(device), torch.from_numpy(y[1200:]).to(device)
    q = model(xt)
    coverage = ((yt >= q[:, 0]) & (yt <= q[:, 2])).float().mean()
    width = (q[:, 2] - q[:, 0]).mean()
print(f"80% interval coverage {coverage.item():.3f} mean width {width.item():.3f}")

"""Fixed: the per-sample Huber term on the whole batch at once."""
import torch
import torch.nn as nn


def robust_loss(pred, target, delta=1.0):
    err = (pred - target).abs().mean(dim=1)
    per_sample = torch.where(err < delta, 0.5 * err ** 2, delta * (err - 0.5 * delta))
    return per_sample.mean()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
X, Y = torch.randn(30, 128, 32), torch.randn(30, 128, 10)
for epoch in range(2):
    for i in range(len(X)):
        loss = robust_loss(model(X[i]), Y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

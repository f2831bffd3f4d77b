"""Keypoint regression with a hand-written robust loss helper that walks the batch sample by
sample (a Huber term per sample, as written from the formula)."""
import torch
import torch.nn as nn


def robust_loss(pred, target, delta=1.0):
    total = 0.0
    for i in range(pred.shape[0]):
        err = (pred[i] - target[i]).abs().mean()
        if err < delta:
            total = total + 0.5 * err ** 2
        else:
            total = total + delta * (err - 0.5 * delta)
    return total / pred.shape[0]


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

"""Regression trained with a `while` loop over an iterator; each step weights the samples by a
confidence built one sample at a time with `.item()` into a list, then `torch.tensor`."""
import torch
import torch.nn as nn

torch.manual_seed(0)
X, Y = torch.randn(40, 512, 32), torch.randn(40, 512)
model = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
batches = iter(list(zip(X, Y)) * 2)
step = 0
while step < 60:
    xb, yb = next(batches)
    pred = model(xb).squeeze(1)
    err = (pred - yb) ** 2
    w = 1.0 / (1.0 + err.detach())
    loss = (w * err).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    step += 1
print("loss", loss.item())

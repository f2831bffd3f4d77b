"""Padded sensor sequences: each step the padding mask goes to NumPy (`.cpu().numpy()`) so a
Python loop can keep the rows with enough real readings; the kept row indices come back as a tensor."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N, T = 16384, 64
lengths = torch.randint(1, T + 1, (N,))
valid = torch.arange(T)[None, :] < lengths[:, None]
signals = torch.randn(N, T) * valid
labels = (signals.sum(1) > 0).long()
model = nn.Sequential(nn.Linear(T, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(2):
    perm = torch.randperm(N)
    for s in range(0, N, 512):
        idx = perm[s:s + 512]
        xb, yb = signals[idx], labels[idx]
        mask = (xb != 0).cpu().numpy()
        real = [int(row.sum()) for row in mask]
        keep = [i for i, n in enumerate(real) if n >= 4]
        rows = torch.tensor(keep)
        xb, yb = xb[rows], yb[rows]
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

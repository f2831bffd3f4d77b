"""Fixed: the rows become one tensor once; the helper slices it."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
N, D = 6144, 64
rows = [[random.gauss(0.0, 1.0) for _ in range(D)] for _ in range(N)]
targets = [sum(r[:4]) for r in rows]
X = torch.tensor(rows)
Y = torch.tensor(targets).unsqueeze(1)


def to_batch(start, size):
    return X[start:start + size], Y[start:start + size]


model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    for start in range(0, N, 512):
        xb, yb = to_batch(start, 512)
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"final loss {loss.item():.4f}")

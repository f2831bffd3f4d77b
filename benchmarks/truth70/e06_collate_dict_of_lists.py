"""Tabular records stored as one dict per sample with Python lists inside (`{"x": [...], "y": int}`);
a `collate_fn` builds the batch tensors from those lists (DataLoader, no workers)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

random.seed(0)
torch.manual_seed(0)
D = 512
records = []
for _ in range(4096):
    x = [random.gauss(0.0, 1.0) for _ in range(D)]
    records.append({"x": x, "y": int(x[0] + x[1] > 0)})


def collate(batch):
    xs = torch.tensor([r["x"] for r in batch])
    ys = torch.tensor([r["y"] for r in batch])
    return xs, ys


loader = DataLoader(records, batch_size=64, shuffle=True, collate_fn=collate)
model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(2):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

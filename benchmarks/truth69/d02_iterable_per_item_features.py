"""Streaming regression: an `IterableDataset` makes each sample's features in Python (Fourier
features of a scalar) and yields them one at a time; the DataLoader batches 64 of them
(no workers)."""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, IterableDataset

torch.manual_seed(0)
FREQS = 32


class Signal(IterableDataset):
    def __init__(self, n, seed):
        self.n, self.seed = n, seed

    def __iter__(self):
        rng = random.Random(self.seed)
        for _ in range(self.n):
            t = rng.uniform(-3.0, 3.0)
            feats = [math.sin(k * t) for k in range(1, FREQS + 1)] + [math.cos(k * t) for k in range(1, FREQS + 1)]
            yield torch.tensor(feats), torch.tensor([math.sin(t) * t])


model = nn.Sequential(nn.Linear(2 * FREQS, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    loader = DataLoader(Signal(4096, epoch), batch_size=64)
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

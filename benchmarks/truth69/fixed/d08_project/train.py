"""Metric learning: an embedding MLP trained with a batch-hard triplet loss from `losses.py`
(batch 64 of 16 classes)."""
import torch
import torch.nn as nn

from losses import batch_hard_triplet

torch.manual_seed(0)
CENTERS = torch.randn(16, 32) * 2
LABELS = torch.randint(0, 16, (2048,))
X = CENTERS[LABELS] + torch.randn(2048, 32)

net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16))
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for epoch in range(2):
    perm = torch.randperm(len(X))
    for s in range(0, len(X), 64):
        idx = perm[s:s + 64]
        loss = batch_hard_triplet(net(X[idx]), LABELS[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, f"{loss.item():.4f}")

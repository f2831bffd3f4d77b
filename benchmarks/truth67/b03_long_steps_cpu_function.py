"""Whitened linear probe with long steps (4 steps of a few hundred ms): each step recomputes the
PCA whitening matrix of the fixed feature table with NumPy."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(0)
table = rng.standard_normal((4000, 512)).astype(np.float32)
labels = torch.from_numpy(rng.integers(0, 10, 4000))
probe = nn.Linear(512, 10)
opt = torch.optim.SGD(probe.parameters(), lr=0.1)
for step in range(4):
    cov = np.cov(table, rowvar=False)
    vals, vecs = np.linalg.eigh(cov)
    white = torch.from_numpy((vecs / np.sqrt(vals + 1e-5)).astype(np.float32))
    x = torch.from_numpy(table) @ white
    loss = F.cross_entropy(probe(x), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())

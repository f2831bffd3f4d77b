# corpus: runnable
"""NumPy feature engineering re-run on the same data every epoch."""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

raw = np.random.lognormal(size=(400, 12)).astype(np.float32)
target = (raw[:, 0] > raw[:, 1]).astype(np.int64)


def preprocess(a):
    a = np.log1p(a)
    return (a - a.mean(axis=0)) / (a.std(axis=0) + 1e-6)


model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
y = torch.from_numpy(target).to(device)
for epoch in range(4):
    feats = preprocess(raw)  # paef: expect cpu-function
    x = torch.from_numpy(feats).to(device)  # paef: ok redundant-tensor; ok pageable-transfer
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")  # paef: ok host-sync

# corpus: runnable
"""A CPU-only tabular regression script (no device anywhere): NumPy feature engineering,
full-batch and mini-batch training, printing tensors and `.item()` freely."""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)

n = 800
raw = np.random.randn(n, 6) * np.array([1.0, 10.0, 0.1, 5.0, 2.0, 1.0]) + np.array([0, 50, 0, -3, 1, 0])
target = raw[:, 0] * 2 + raw[:, 1] * 0.1 - raw[:, 3] * 0.5 + 0.1 * np.random.randn(n)
cat = np.random.randint(0, 4, n)


def engineer(features, categories):
    mean, std = features.mean(0), features.std(0) + 1e-8
    z = (features - mean) / std
    onehot = np.eye(4)[categories]
    return np.hstack([z, z[:, :2] ** 2, onehot]).astype(np.float32)


model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
y = torch.tensor(target, dtype=torch.float32).unsqueeze(1)
history = []
for epoch in range(30):
    X = torch.from_numpy(engineer(raw, cat))  # paef: expect cpu-function
    perm = torch.randperm(n)
    epoch_loss = 0
    for b in range(0, n, 100):
        idx = perm[b:b + 100]
        loss = nn.functional.mse_loss(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss  # paef: expect-fix graph-retention
        history.append(loss.item())
    if loss.item() < 0.02:
        print("converged at epoch", epoch)
        break
    if epoch % 10 == 0:
        print(epoch, round(epoch_loss.item() / 8, 4))

with torch.no_grad():
    pred = model(torch.from_numpy(engineer(raw, cat)))
    print("final mse", float(((pred - y) ** 2).mean()), "min batch loss", round(min(history), 4))

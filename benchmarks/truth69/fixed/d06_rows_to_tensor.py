"""Twin of d06: the records become two tensors once; each epoch shuffles an index and slices."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
COLUMNS = ["area", "rooms", "age", "floor", "lat", "lon", "dist_center", "dist_school",
           "dist_station", "noise", "green", "crime", "tax", "income", "parking", "lift",
           "balcony", "garden", "garage", "heating", "insulation", "windows", "roof", "facade",
           "view", "sun", "storage", "cellar", "energy", "water", "internet", "shops"]
ROWS = []
for _ in range(8192):
    row = {c: random.gauss(0.0, 1.0) for c in COLUMNS}
    row["price"] = 2.0 * row["area"] + row["rooms"] - 0.5 * row["age"] + random.gauss(0.0, 0.1)
    ROWS.append(row)

X = torch.Tensor([[r[c] for c in COLUMNS] for r in ROWS])
Y = torch.Tensor([[r["price"]] for r in ROWS])
model = nn.Sequential(nn.Linear(len(COLUMNS), 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    perm = torch.randperm(len(X))
    for start in range(0, len(ROWS), 128):
        idx = perm[start:start + 128]
        xb, yb = X[idx], Y[idx]
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

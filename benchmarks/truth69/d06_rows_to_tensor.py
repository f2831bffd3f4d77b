"""House-price regression from table rows kept as records (a list of dicts, as
`DataFrame.to_dict("records")` gives); each batch's features are read column by column from the
rows and turned into a tensor with `torch.Tensor(list)`."""
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

model = nn.Sequential(nn.Linear(len(COLUMNS), 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    random.shuffle(ROWS)
    for start in range(0, len(ROWS), 128):
        chunk = ROWS[start:start + 128]
        xb = torch.Tensor([[r[c] for c in COLUMNS] for r in chunk])
        yb = torch.Tensor([[r["price"]] for r in chunk])
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

# corpus: runnable
# `.item()` accumulators whose Python value steers the run: a scheduler stepped on the running
# sum inside the epoch, an early stop comparing the running sum, `range()` sized by an int
# total, a `math.isfinite` guard, a dict key built from the total, a format spec.
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
ds = TensorDataset(torch.randn(32, 4), torch.randn(32, 1))
dl = DataLoader(ds, batch_size=4)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)

for epoch in range(2):
    running = 0.0
    for i, (xb, yb) in enumerate(dl):
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
        if i % 4 == 3:
            sched.step(running)
    print("epoch", epoch, "lr", opt.param_groups[0]["lr"])

best = float("inf")
for epoch in range(3):
    seen = 0
    for xb, yb in dl:
        xb = xb.to(device)
        seen += (model(xb) > 0).sum().item()
        if seen > 40:
            break
    print("seen", seen)

hits = 0
for xb, yb in dl:
    hits += int((model(xb.to(device)) > 0).sum().item())
pad = [0 for _ in range(hits)]
print("range sized", len(pad))

total = 0.0
for xb, yb in dl:
    total += nn.functional.mse_loss(model(xb.to(device)), yb.to(device)).item()
print("finite", math.isfinite(total), {round(total, 3): "key"}, "{:.4e}".format(total))

worst = 0.0
for xb, yb in dl:
    worst = max(worst, nn.functional.mse_loss(model(xb.to(device)), yb.to(device)).item())
print("worst", type(worst).__name__, worst)

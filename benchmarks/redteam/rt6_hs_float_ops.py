# corpus: runnable
# Running sums of `.item()` values that go through float arithmetic before they are added:
# scaled by the batch size, squared, divided, a conditional expression, under bfloat16
# autocast, `math` functions; printed with full precision.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(7, 1).to(device)
batches = [(torch.randn(13, 7), torch.randn(13, 1)) for _ in range(6)]

total = 0.0
seen = 0
for xb, yb in batches:
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    total += loss.item() * xb.size(0)
    seen += xb.size(0)
print("weighted", total / seen)

sq = 0.0
for xb, yb in batches:
    err = (model(xb.to(device)) - yb.to(device)).mean()
    sq += err.item() ** 2
print("squared", sq)

frac = 0.0
for xb, yb in batches:
    loss = nn.functional.l1_loss(model(xb.to(device)), yb.to(device))
    frac += loss.item() / 3
print("divided", frac)

mixed = 0.0
for i, (xb, yb) in enumerate(batches):
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    mixed += loss.item() if i % 2 else 0.1
print("conditional", mixed)

peak = 0.0
with torch.autocast(device_type=device.type, dtype=torch.bfloat16):
    for xb, yb in batches:
        out = model(xb.to(device))
        peak += out.max().item()
print("bf16", peak)

geo = 0.0
for xb, yb in batches:
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    geo += math.log(loss.item())
print("log", geo)

ints = 0
for xb, yb in batches:
    ints += (model(xb.to(device)) > 0).sum().item() * 3
print("ints", ints)

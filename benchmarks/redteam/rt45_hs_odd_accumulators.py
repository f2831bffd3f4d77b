# corpus: runnable
# Red team 45 (blind): running totals whose TYPE is not a Python float: a NumPy float32 (NumPy 2 keeps
# float32 + Python float in float32), a bfloat16 0-d tensor updated in place, an exponential moving
# average, and best/worst trackers with Python `max`/`min` that must skip a NaN batch loss (a batch whose
# mask keeps no row). Deterministic algorithms are on.
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
torch.set_num_threads(1)
torch.use_deterministic_algorithms(True)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

data = []
for step in range(24):
    x = torch.randn(5, 6)
    y = torch.randint(0, 3, (5,))
    keep = torch.rand(5) > (1.0 if step % 7 == 3 else 0.3)  # every 7th batch keeps nothing
    data.append((x, y, keep))

np_total = np.float32(0.0)
bf_total = torch.zeros((), dtype=torch.bfloat16)
ema = 0.0
best = float("inf")
worst = -float("inf")
nan_batches = 0
for epoch in range(2):
    for x, y, keep in data:
        x, y, keep = x.to(device), y.to(device), keep.to(device)
        logits = model(x)
        loss = F.cross_entropy(logits[keep], y[keep])
        best = min(best, loss.item())
        worst = max(worst, loss.item())
        if math.isnan(loss.item()):
            nan_batches += 1
            continue
        np_total += loss.item()
        bf_total += loss.item()
        ema = 0.9 * ema + 0.1 * loss.item()
        opt.zero_grad()
        loss.backward()
        opt.step()

print("np total", repr(np_total), type(np_total).__name__)
print("bf total", bf_total, bf_total.dtype)
print("ema %.17g" % ema)
print("best %.17g worst %.17g" % (best, worst))
print("nan batches", nan_batches)

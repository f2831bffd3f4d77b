# corpus: runnable
# Red team 48, PROBE after first contact (not blind): the first contact's host-sync rewrite turned
# `running += loss.item() * len(yb)` into a float64 tensor sum converted back after the loop by
# `torch.as_tensor(running).item()`. Here the running totals start from a checkpoint loaded earlier in
# the same run (resume): one total was stored as a NumPy float64 (from `np.mean`), one as a Python int,
# one as a 0-d tensor. The loop adds to each; the totals' types and reprs are printed.
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(19)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(6, 4), torch.randint(0, 3, (6,))) for _ in range(5)]
warm = [0.91, 0.87, 0.85]
buf = io.BytesIO()
torch.save({"epoch": 0, "loss_sum": np.mean(warm) * 18, "seen": 18, "tensor_sum": torch.tensor(2.5)}, buf)
state = torch.load(io.BytesIO(buf.getvalue()), weights_only=False)

running = state["loss_sum"]
seen = state["seen"]
tsum = state["tensor_sum"]
for xb, yb in batches:
    xb, yb = xb.to(device), yb.to(device)
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item() * len(yb)
    tsum += loss.item()
    seen += len(yb)
print("running", repr(running), type(running).__name__)
print("tensor total", repr(tsum), type(tsum).__name__)
print("mean", repr(running / seen))

# corpus: runnable
# A local module changing the script's globals through frames (`inspect.currentframe().f_back`,
# `sys._getframe(1)`, `inspect.stack()`), reading a running total mid-loop.
import torch
import torch.nn as nn

import probe

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(3, 3)
rows = []
for epoch in range(3):
    hist = torch.zeros(3)
    steps = torch.ones(1)
    for x in xs:
        probe.record(x)
        probe.bump()
    rows.append((round(hist.sum().item(), 4), steps.item()))
print("frames", rows)

model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
running = 0.0
seen = []
for x in xs:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item()
    seen.append(type(probe.total_seen()).__name__)
print("running", round(running, 4), seen)

# corpus: runnable
# Running sums of `.item()` where the call itself is control flow: a multi-element loss makes
# `.item()` raise and the step is skipped by an except clause; a NaN check with math.isfinite
# on the summed value; a total reset by an except branch; a total kept on a dataclass field.
import math
from dataclasses import dataclass

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
xs = torch.randn(6, 4, 3)

total = 0.0
skipped = 0
for i, x in enumerate(xs):
    out = model(x)
    loss = out.pow(2).mean() if i % 3 else out.pow(2).mean(0)
    opt.zero_grad()
    loss.sum().backward()
    opt.step()
    try:
        total += loss.item()
    except RuntimeError:
        skipped += 1
print("try item", round(total, 4), skipped)

running = 0.0
bad = 0
for i, x in enumerate(xs):
    loss = model(x).pow(2).mean() * (float("nan") if i == 2 else 1.0)
    running += loss.item()
    if not math.isfinite(running):
        bad += 1
        running = 0.0
print("isfinite", round(running, 4), bad)


@dataclass
class Meter:
    total: float = 0.0
    n: int = 0


meter = Meter()
for x in xs:
    loss = model(x).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    meter.total += loss.item()
    meter.n += 1
print("dataclass", f"{meter.total / meter.n:.4f}", type(meter.total).__name__)

acc = 0.0
for i, x in enumerate(xs):
    loss = model(x).pow(2).mean()
    try:
        if i == 4:
            raise ValueError("bad batch")
        acc += loss.item()
    except ValueError:
        acc = 0.0
print("reset in except", round(acc, 4), type(acc).__name__)

# corpus: runnable
# Attacks on red team 20's fix (a running `.item()` total is rewritten only when its weight is
# proved a Python number): a KL weight that starts as `0.0` but a helper rebinds to a NumPy
# float32 through `global`, a walrus binding, a closure's `nonlocal`, and `math.prod` of NumPy
# scalars (a write through `globals()` is in rt20c_globals_write: it makes every loop review).
import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(12)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(6, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 6), torch.randn(8, 2)) for _ in range(6)]
betas = np.linspace(0.1, 1.0, len(data), dtype=np.float32)

kl_weight = 0.0


def anneal(step):
    global kl_weight
    kl_weight = betas[step]


total = 0.0
for step, (x, y) in enumerate(data):
    anneal(step)
    loss = F.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item() * kl_weight
print("global", total)

w = 1.0
t2 = 0.0
for step, (x, y) in enumerate(data):
    out = model(x.to(device))
    loss = F.mse_loss(out, y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if (w := betas[step]) > 2.0:
        print("never")
    t2 += out.mean().item() * w
print("walrus", t2)

def train_with_schedule():
    weight = 1.0

    def bump(step):
        nonlocal weight
        weight = betas[step] * 2

    acc = 0.0
    for step, (x, y) in enumerate(data):
        bump(step)
        loss = F.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc += loss.item() * weight
    return acc


print("nonlocal", train_with_schedule())

t5 = 0.0
for step, (x, y) in enumerate(data):
    scale = math.prod(betas[: step + 1])
    loss = F.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    t5 += loss.item() * scale
print("prod", t5, type(t5).__name__)

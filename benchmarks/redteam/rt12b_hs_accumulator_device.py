# corpus: runnable
# Wave 2 (a device in the program, which host-sync needs to speak): `.item()` running sums whose Python type matters: a complex metric, int64 sums beyond 2**53,
# a boolean hit counter, an int32 counter that would overflow, a NaN-skipping sum, a Fraction total.
import math
from fractions import Fraction

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 4).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
xs = torch.randn(5, 2, 4).to(device)

phase = 0.0
for x in xs:
    out = model(x)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    phase += torch.fft.fft(out.detach())[..., 1].mean().item()
print("complex", phase)

big = 0
for x in xs:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    big += (torch.tensor(2 ** 60 + 1) + (loss.detach() * 0).long()).item()
print("int64 big", big, big % 7)

hits = 0
for x in xs:
    out = model(x)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    hits += (out.abs() < 10).all().item()
print("bool hits", hits, type(hits).__name__)

count = 0
for x in xs:
    out = model(x)
    loss = out.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    count += (torch.tensor(2 ** 30, dtype=torch.int32) + (loss.detach() * 0).int()).item()
print("int32", count)

clean = 0.0
for x in xs:
    loss = model(x).pow(2).mean() * float("nan") if False else model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    v = loss.item()
    if not math.isnan(v):
        clean += v
print("nan skip", round(clean, 5))

frac = Fraction(0)
for x in xs:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    frac += loss.item()
print("fraction", type(frac).__name__, round(float(frac), 5))

steps = 0
for x in xs:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    steps += x.shape[0] * (loss.item() > 0)
print("steps", steps, type(steps).__name__)

prod = 1.0
rounded = 0.0
for x in xs:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    prod *= 1.0 + loss.item()
    rounded = rounded + round(loss.item(), 2)
print("product", repr(prod), "rounded", repr(rounded))

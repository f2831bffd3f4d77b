# corpus: runnable
# Red team 24: running sums whose type or grad mode matters: the first addition made inside
# `torch.inference_mode()` (a tensor total made there cannot be updated in place outside it),
# NumPy float32 and Fraction totals, a total kept in a list cell
from fractions import Fraction

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
val = torch.randn(8, 4, device=device)
running = 0.0
for step in range(3):
    with torch.inference_mode():
        vloss = model(val).pow(2).mean()
        running += vloss.item()
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item()
print("inference first", round(running, 5))

f32 = np.float32(0.0)
frac = Fraction(0)
cell = [0.0]
for step in range(3):
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    f32 += loss.item()
    frac += loss.item()
    cell[0] += loss.item()
print("typed totals", type(f32).__name__, type(frac).__name__, round(float(f32), 4), round(float(frac), 4),
      round(cell[0], 5))

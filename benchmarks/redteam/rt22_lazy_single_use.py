# corpus: runnable
# Red team 22: single-use iterators (map / filter / zip / generator objects, islice of an iterator) read in the loop
import itertools

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(22)
device = "cuda" if torch.cuda.is_available() else "cpu"

raw = [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]
scaled = map(float, raw)
kept = filter(lambda v: v > 2.0, raw)
pairs = zip(raw, reversed(raw))
squares = (v * v for v in raw)
stream = iter(raw)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(3):
    a = torch.tensor(list(scaled), device=device)
    b = torch.tensor(list(kept), device=device)
    c = torch.tensor(list(pairs), device=device)
    d = np.array(list(squares))
    e = torch.tensor(list(itertools.islice(stream, 4)), device=device)
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean() + a.sum() * 0 + e.sum() * 0
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append((a.numel(), b.numel(), c.numel(), d.size, float(e.sum()) if e.numel() else 0.0))
print("lazy", log)
print("weights", round(float(model.weight.sum()), 6))

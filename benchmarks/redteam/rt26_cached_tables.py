# corpus: runnable
# Red team 26, wave 1 (blind): `functools.lru_cache` / `functools.cache` helpers hand back the
# same cached array on every call; the loop changes that array in place through one call's
# result, so another call of the same helper in the loop (or a tensor built from it) is not the
# same every iteration
import functools

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2603)
device = "cuda" if torch.cuda.is_available() else "cpu"


@functools.lru_cache(maxsize=None)
def position_table(n):
    return np.arange(1.0, n + 1.0)


@functools.cache
def class_weights(k):
    return np.ones(k) / k


@functools.lru_cache(maxsize=8)
def mask_rows(n):
    return [1.0] * n


model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    x = torch.randn(8, 4, device=device)
    y = torch.randint(0, 3, (8,), device=device)
    table = position_table(4)
    table *= 1.1
    weights = class_weights(3)
    weights += 0.05
    rows = mask_rows(3)
    rows[step % 3] += 1.0
    pe = np.sin(position_table(4))
    w = torch.tensor(class_weights(3), dtype=torch.float32)
    m = torch.tensor(mask_rows(3))
    loss = nn.functional.cross_entropy(model(x), y, weight=w.to(device)) + model(x).sum() * 1e-3 * float(pe.sum())
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append((round(float(pe.sum()), 4), [round(v, 4) for v in w.tolist()], m.tolist(), round(loss.item(), 4)))
print("cached", log)

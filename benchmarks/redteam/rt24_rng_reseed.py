# corpus: runnable
# Red team 24: random streams reseeded or forked inside the loop: a generator reseeded each step,
# `torch.random.fork_rng`, `np.random.seed` in the loop, a NumPy Generator's draws, random
# tensors moved to a device with a dtype (drawn in another precision when folded)
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
np.random.seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
gen = torch.Generator().manual_seed(7)
rng = np.random.default_rng(3)
base = np.arange(4.0)
log = []
for step in range(3):
    gen.manual_seed(100 + step)
    noise = torch.randn(4, generator=gen)
    jitter = np.random.rand(4)
    draw = rng.normal(size=4)
    np.random.seed(step)
    same = np.random.permutation(4)
    with torch.random.fork_rng():
        torch.manual_seed(5)
        fixed = torch.rand(4)
    mask = torch.rand(4).to(device, torch.float64)
    half = torch.randn(4).to(device).double()
    shifted = np.sqrt(base + step)
    x = torch.randn(8, 4, device=device) + noise.to(device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append(round(float(noise.sum() + jitter.sum() + draw.sum() + same[0] + fixed.sum()
                           + mask.sum() + half.sum() + shifted.sum()), 5))
    log.append(round(loss.item(), 5))
print("rng", log)

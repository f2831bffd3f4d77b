# corpus: runnable
# Red team 48 (blind): an augmentation config whose attributes are properties that DRAW from Python's
# `random` (a jitter strength) or count their reads (a temperature schedule). The loop builds per-step
# tensors from those attributes, which look loop-invariant (the config object is never written in the
# loop). Hoisting such a construction changes how many draws happen, and so every later number.
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(3)
np.random.seed(3)
torch.manual_seed(3)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class AugConfig:
    """Jitter strength drawn fresh on each read, like a RandAugment magnitude sampled per use."""

    def __init__(self, low, high):
        self.low = low
        self.high = high
        self.reads = 0

    @property
    def jitter(self):
        self.reads += 1
        return random.uniform(self.low, self.high)


class Temperature:
    """A schedule object: every read advances it, so reading it is a step of the schedule."""

    def __init__(self, start, decay):
        self.value = start
        self.decay = decay

    @property
    def current(self):
        v = self.value
        self.value = self.value * self.decay
        return v


cfg = AugConfig(0.05, 0.25)
temp = Temperature(2.0, 0.9)
model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x_all = torch.randn(64, 6)
y_all = torch.randint(0, 3, (64,))

losses = []
for epoch in range(3):
    for i in range(0, 64, 16):
        xb = x_all[i:i + 16].to(device)
        yb = y_all[i:i + 16].to(device)
        noise_scale = torch.full((16, 1), cfg.jitter, device=device)
        xb = xb + noise_scale * torch.randn(16, 6, device=device)
        tau = torch.tensor(temp.current, device=device)
        logits = model(xb) / tau
        loss = F.cross_entropy(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(f"epoch {epoch} last loss {losses[-1]:.10f}")

print("config reads", cfg.reads, "temperature now", repr(temp.value))
print("next python draw", repr(random.random()))
print("next torch draw", torch.rand(1).item())
print("sum of losses", repr(sum(losses)))

# corpus: runnable
# Augmentation helpers that draw from a module-level generator (not `np.random.*` by name):
# called with the same arguments every epoch, they return other numbers every call.
import numpy as np
import torch

torch.manual_seed(0)
rng = np.random.default_rng(0)
gen = torch.Generator().manual_seed(3)
BASE = np.linspace(0.0, 1.0, 6)


def jitter(signal):
    return signal + 0.1 * rng.standard_normal(signal.shape)


def random_crop(signal, size):
    start = rng.integers(0, len(signal) - size + 1)
    return signal[start:start + size]


def torch_noise(n):
    return torch.empty(n).normal_(generator=gen)


def laplace_noise(n):
    return rng.laplace(0.0, 1.0, n)


w = torch.zeros(4, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.05)
for step in range(3):
    aug = jitter(BASE)  # paef: refuse cpu-function
    crop = random_crop(BASE, 4)  # paef: refuse cpu-function
    lap = laplace_noise(4)  # paef: refuse cpu-function
    xb = torch.tensor(crop, dtype=torch.float32) + torch.tensor(aug[:4], dtype=torch.float32) + torch.tensor(lap, dtype=torch.float32)
    xb = xb + torch_noise(4)
    loss = ((w * xb).sum() - 1.0) ** 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, np.round(aug, 4).tolist(), round(loss.item(), 5))

# corpus: runnable
# NumPy helpers called per epoch with arguments that do not change, but which draw random
# numbers through an object the program made once: a `RandomState` captured by a closure, a
# `random.Random` kept on a config object, a dataset's `__getitem__` that augments, a helper
# whose generator is a default argument.
import random

import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
rs = np.random.RandomState(0)
X = np.linspace(0.0, 1.0, 12).reshape(4, 3)


def make_mask(shape, p=0.3):
    return (rs.uniform(size=shape) > p).astype(np.float32)


class Cfg:
    rng = random.Random(1)


def jitter(a, cfg=Cfg):
    return a + cfg.rng.random()


def shuffle_rows(a, gen=np.random.default_rng(2)):
    return a[gen.permutation(a.shape[0])]


masks, shifts, orders = [], [], []
for epoch in range(3):
    m = torch.from_numpy(make_mask((4, 3)))
    j = torch.from_numpy(jitter(X))
    s = torch.from_numpy(shuffle_rows(X))
    masks.append(m.sum().item())
    shifts.append(round(j.mean().item(), 6))
    orders.append(s[:, 0].tolist())
print("masks", masks)
print("shifts", shifts)
print("orders", orders)

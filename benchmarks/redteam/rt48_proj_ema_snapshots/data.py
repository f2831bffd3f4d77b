"""Synthetic two-moons-like data with augmentation drawn from NumPy's global stream in `__getitem__`
(a flip and a jitter per item), served by a shuffling loader driven by its own torch.Generator."""
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class JitterSet(Dataset):
    def __init__(self, n, train):
        g = torch.Generator().manual_seed(1234 if train else 4321)
        self.x = torch.randn(n, 2, generator=g)
        self.y = (self.x[:, 0] * self.x[:, 1] > 0).long()
        self.train = train
        self.served = 0

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        self.served += 1
        x = self.x[i].clone()
        if self.train:
            if np.random.rand() < 0.5:
                x = -x
            x = x + torch.from_numpy(np.random.normal(0, 0.05, size=2).astype(np.float32))
        return x, self.y[i]


def make_loaders(seed):
    g = torch.Generator().manual_seed(seed)
    train = JitterSet(120, True)
    val = JitterSet(40, False)
    return (DataLoader(train, batch_size=16, shuffle=True, generator=g),
            DataLoader(val, batch_size=20), train, val)

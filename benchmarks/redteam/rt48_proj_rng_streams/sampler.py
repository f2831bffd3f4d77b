"""A sampler reshuffled by epoch from its own generator (like DistributedSampler's set_epoch), and a
dataset whose items pick a random crop offset from torch's global stream when they are served."""
import torch
from torch.utils.data import Dataset, Sampler


class EpochSampler(Sampler):
    def __init__(self, n, seed):
        self.n = n
        self.seed = seed
        self.epoch = 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __iter__(self):
        g = torch.Generator()
        g.manual_seed(self.seed + self.epoch)
        return iter(torch.randperm(self.n, generator=g).tolist())

    def __len__(self):
        return self.n


class CropSet(Dataset):
    def __init__(self, n, width, crop):
        g = torch.Generator().manual_seed(99)
        self.x = torch.randn(n, width, generator=g)
        self.y = torch.randint(0, 3, (n,), generator=g)
        self.crop = crop

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        off = int(torch.randint(0, self.x.shape[1] - self.crop + 1, (1,)))
        return self.x[i, off:off + self.crop], self.y[i]

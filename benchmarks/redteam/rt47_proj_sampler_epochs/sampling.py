"""Samplers of the pipeline: a class-aware sampler whose order depends on `set_epoch` and which keeps,
as it is consumed, the labels it handed out; and an infinite sampler for the step-based phase."""
import torch
from torch.utils.data import Sampler


class EpochAwareSampler(Sampler):
    def __init__(self, labels, seed):
        self.labels = labels
        self.seed = seed
        self.epoch = 0
        self.history = []

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __len__(self):
        return len(self.labels)

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed * 1000 + self.epoch)
        for idx in torch.randperm(len(self.labels), generator=g).tolist():
            self.history.append(float(self.labels[idx]))
            yield idx


class InfiniteSampler(Sampler):
    def __init__(self, n, seed):
        self.n = n
        self.g = torch.Generator().manual_seed(seed)

    def __iter__(self):
        while True:
            yield from torch.randperm(self.n, generator=self.g).tolist()

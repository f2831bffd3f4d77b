"""Preprocessing fitted once on the training frame, applied per batch."""
import torch


class Standardizer:
    def __init__(self, names):
        self.names, self.stats = names, {}

    def fit(self, frame):
        for n in self.names:
            col = torch.tensor(frame[n], dtype=torch.float64)
            self.stats[n] = (col.mean().item(), col.std().item())
        return self

    def transform(self, frame):
        cols = []
        for n in self.names:
            mean, std = self.stats[n]
            cols.append([(x - mean) / std for x in frame[n]])
        return torch.tensor(cols).T


class Vocab:
    def __init__(self):
        self.index = {'<unk>': 0}
        self.counts = {}

    def fit(self, values):
        for v in values:
            self.counts[v] = self.counts.get(v, 0) + 1
        for v in sorted(self.counts, key=lambda k: (-self.counts[k], k)):
            self.index.setdefault(v, len(self.index))
        return self

    def encode(self, values):
        return torch.tensor([self.index.get(v, 0) for v in values])

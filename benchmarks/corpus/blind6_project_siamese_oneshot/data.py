"""Synthetic "alphabet" glyphs (random stroke templates plus jitter) and a pair dataset that
draws same/different pairs at random in __getitem__, as the common Omniglot siamese repos do."""
import random

import numpy as np
import torch
from torch.utils.data import Dataset


def make_glyphs(n_classes, per_class, size=20, seed=0):
    rng = np.random.RandomState(seed)
    templates = (rng.rand(n_classes, size, size) > 0.8).astype(np.float32)
    images = templates[:, None] + 0.3 * rng.randn(n_classes, per_class, size, size).astype(np.float32)
    return {c: [images[c, k] for k in range(per_class)] for c in range(n_classes)}


class PairDataset(Dataset):
    def __init__(self, glyphs, n_pairs):
        self.glyphs = glyphs
        self.classes = list(glyphs)
        self.n_pairs = n_pairs

    def __len__(self):
        return self.n_pairs

    def __getitem__(self, index):
        c1 = random.choice(self.classes)
        if index % 2 == 1:
            label = 1.0
            a, b = random.sample(self.glyphs[c1], 2)
        else:
            label = 0.0
            c2 = random.choice([c for c in self.classes if c != c1])
            a, b = random.choice(self.glyphs[c1]), random.choice(self.glyphs[c2])
        return torch.from_numpy(a).unsqueeze(0), torch.from_numpy(b).unsqueeze(0), torch.tensor(label)  # paef: ok sync-dataloader

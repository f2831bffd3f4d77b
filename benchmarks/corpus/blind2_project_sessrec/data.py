"""Session data: generation, a Dataset over a dict of columns, and a padding collate."""
import random

import torch
from torch.utils.data import Dataset


def generate_sessions(n, n_items, rng):
    data = {"items": [], "target": []}
    for _ in range(n):
        length = rng.randint(2, 7)
        start = rng.randint(1, n_items - length - 1)
        step = rng.choice([1, 2])
        seq = [min(n_items - 1, start + step * k) for k in range(length + 1)]
        data["items"].append(seq[:-1])
        data["target"].append(seq[-1])
    return data


class SessionDataset(Dataset):
    def __init__(self, data, max_len=8):
        self.data = data
        self.max_len = max_len

    def __len__(self):
        return len(self.data["target"])

    def __getitem__(self, idx):
        items = self.data["items"][idx][-self.max_len :]
        return torch.tensor(items), torch.tensor(self.data["target"][idx])  # paef: expect dict-as-list


def collate_fn(batch):
    seqs, targets = zip(*batch)
    lens = torch.tensor([len(s) for s in seqs])
    padded = torch.zeros(len(seqs), int(lens.max()), dtype=torch.long)
    for i, s in enumerate(seqs):  # paef: ok elementwise-loop
        padded[i, : len(s)] = s
    return padded, lens, torch.stack(targets)


def seed_everything(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    return random.Random(seed)

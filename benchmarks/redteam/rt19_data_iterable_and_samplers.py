# corpus: runnable
# Data pipelines of modern scripts: an `IterableDataset` reading shards with `get_worker_info`,
# `WeightedRandomSampler` with a seeded generator, a `BatchSampler` over a `SequentialSampler`,
# a DistributedSampler stand-in whose `set_epoch` reshuffles, a `collate_fn` class padding ragged
# rows, loaders built by a factory from `**cfg`, and per-batch totals.
import math

import torch
from torch import nn
from torch.utils.data import (BatchSampler, DataLoader, Dataset, IterableDataset, SequentialSampler,
                              WeightedRandomSampler, get_worker_info)

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Shards(IterableDataset):
    def __init__(self, shards):
        self.shards = shards

    def __iter__(self):
        info = get_worker_info()
        ids = range(len(self.shards)) if info is None else range(info.id, len(self.shards), info.num_workers)
        for i in ids:
            for row in self.shards[i]:
                yield row


class Ragged(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(5)
        self.rows = [torch.randn(int(torch.randint(2, 6, (1,), generator=g)), 4, generator=g) for _ in range(n)]
        self.labels = torch.randint(0, 2, (n,), generator=g)

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i], self.labels[i]


class PadCollate:
    def __init__(self, value=0.0):
        self.value = value
        self.calls = 0

    def __call__(self, batch):
        self.calls += 1
        rows, labels = zip(*batch)
        lengths = torch.tensor([len(r) for r in rows])
        padded = nn.utils.rnn.pad_sequence(rows, batch_first=True, padding_value=self.value)
        return padded, lengths, torch.stack(labels)


class ShardSampler:
    """A DistributedSampler stand-in: rank 0 of 2, reshuffled by `set_epoch`."""

    def __init__(self, n, rank=0, world=2, seed=0):
        self.n, self.rank, self.world, self.seed, self.epoch = n, rank, world, seed, 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed + self.epoch)
        order = torch.randperm(self.n, generator=g).tolist()
        return iter(order[self.rank::self.world])

    def __len__(self):
        return math.ceil(self.n / self.world)


def make_loader(ds, **cfg):
    return DataLoader(ds, **cfg)


def seed_worker(worker_id):
    torch.manual_seed(worker_id)


model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ragged = Ragged(24)
collate = PadCollate()
cfg = {"batch_size": 4, "collate_fn": collate, "num_workers": 0, "worker_init_fn": seed_worker}
weights = torch.where(ragged.labels == 1, 3.0, 1.0)
sampler = WeightedRandomSampler(weights, num_samples=16, replacement=True, generator=torch.Generator().manual_seed(1))
loaders = [
    make_loader(ragged, sampler=sampler, **cfg),
    make_loader(ragged, batch_sampler=BatchSampler(SequentialSampler(ragged), 5, drop_last=True),
                collate_fn=collate),
]
dist = ShardSampler(len(ragged))
loaders.append(make_loader(ragged, sampler=dist, **cfg))

for epoch in range(2):
    dist.set_epoch(epoch)
    for li, loader in enumerate(loaders):
        total = 0.0
        tokens = 0
        for padded, lengths, labels in loader:
            padded, labels = padded.to(device), labels.to(device)
            mask = torch.arange(padded.shape[1], device=device)[None, :] < lengths.to(device)[:, None]
            pooled = (padded * mask[..., None]).sum(1) / lengths.to(device)[:, None]
            loss = nn.functional.cross_entropy(model(pooled), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            tokens += lengths.sum().item()
        print(epoch, li, round(total, 6), tokens, collate.calls)

stream = DataLoader(Shards([torch.randn(5, 4) for _ in range(3)]), batch_size=4)
seen = 0.0
for xb in stream:
    seen += model(xb.to(device)).sum().item()
print("stream", round(seen, 6))

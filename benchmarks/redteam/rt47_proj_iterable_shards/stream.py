"""A streaming dataset as sharded readers write it: an IterableDataset that splits its shards between
DataLoader workers with `get_worker_info`, and a batch generator that carries its leftover rows from one
epoch into the next (the tail of an epoch starts the next one)."""
import math

import torch
from torch.utils.data import IterableDataset, get_worker_info


class ShardStream(IterableDataset):
    def __init__(self, shards):
        self.shards = shards

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            mine = self.shards
        else:
            per = math.ceil(len(self.shards) / info.num_workers)
            mine = self.shards[info.id * per:(info.id + 1) * per]
        for shard in mine:
            for row in shard:
                yield row


class CarryBatcher:
    """Groups rows into batches of `size`; rows left over at the end of a pass wait for the next pass."""

    def __init__(self, size):
        self.size = size
        self.pending = []
        self.emitted = 0

    def batches(self, rows):
        for row in rows:
            self.pending.append(row)
            if len(self.pending) == self.size:
                xs = torch.stack([r[0] for r in self.pending])
                ys = torch.stack([r[1] for r in self.pending])
                self.pending = []
                self.emitted += 1
                yield xs, ys


def make_shards(n_shards, rows_per_shard, dim, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(dim, 1, generator=g)
    shards = []
    for _ in range(n_shards):
        x = torch.randn(rows_per_shard, dim, generator=g)
        y = (x @ w).squeeze(1) + 0.05 * torch.randn(rows_per_shard, generator=g)
        shards.append([(x[i], y[i]) for i in range(rows_per_shard)])
    return shards

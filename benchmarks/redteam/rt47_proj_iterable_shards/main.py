# corpus: runnable
# Red team 47 (blind): a sharded IterableDataset read by a DataLoader with worker sharding
# (`get_worker_info`, `worker_init_fn` seeding, `persistent_workers`, `prefetch_factor`), rows regrouped by
# a batcher that carries leftovers between epochs, `itertools.chain` of two validation streams, and
# `zip` of two loaders (which truncates to the shorter one). Loss totals and counts printed.
import itertools
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from stream import CarryBatcher, ShardStream, make_shards
from train import evaluate, train_pass

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def seed_worker(worker_id):
    seed = torch.initial_seed() % 2 ** 32
    np.random.seed(seed)
    random.seed(seed)


def main():
    shards = make_shards(4, 9, 5, seed=1)
    rows = DataLoader(ShardStream(shards), batch_size=None, num_workers=2, worker_init_fn=seed_worker,
                      persistent_workers=True, prefetch_factor=4)
    model = nn.Sequential(nn.Linear(5, 8), nn.SiLU(), nn.Linear(8, 1)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    batcher = CarryBatcher(size=5)
    for epoch in range(3):
        total, count = train_pass(model, opt, batcher.batches(rows), device)
        print("epoch", epoch, "batches", count, "pending", len(batcher.pending), "mean %.12f" % (total / count))
    val_a = DataLoader(ShardStream(make_shards(1, 7, 5, seed=2)), batch_size=3)
    val_b = DataLoader(ShardStream(make_shards(1, 5, 5, seed=3)), batch_size=3)
    print("chained mse %.12f" % evaluate(model, itertools.chain(val_a, val_b), device))
    pairs = 0
    diff = 0.0
    for (xa, ya), (xb, yb) in zip(val_a, val_b):
        with torch.no_grad():
            da = model(xa.to(device)).squeeze(1) - ya.to(device)
            db = model(xb.to(device)).squeeze(1) - yb.to(device)
        diff += (da.abs().mean() - db.abs().mean()).item()
        pairs += 1
    print("zipped pairs", pairs, "diff %.12f" % diff, "emitted", batcher.emitted)


if __name__ == "__main__":
    main()

# corpus: runnable
# Red team 32b, wave 1 (blind): a curriculum/bucketing sampler written in pure Python. Each epoch
# the sample order is rebuilt by helpers from per-sample lengths that never change (sorted ids, a
# length-bucket table, a priority queue), then consumed: shuffled in place by a NumPy generator,
# popped from a heap, drained bucket by bucket. The helpers only read their arguments; it is the
# caller that changes the lists they return.
import heapq

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(3)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
rng = np.random.default_rng(3)
LENGTHS = [5, 3, 8, 2, 7, 4, 6, 1, 9, 3, 5, 2]
data = torch.randn(len(LENGTHS), 6)
target = (data.sum(1) > 0).long()


def ids_by_length(lengths):
    return sorted(range(len(lengths)), key=lambda i: lengths[i])


def length_buckets(lengths, width):
    buckets = {}
    for i, n in enumerate(lengths):
        buckets.setdefault(n // width, []).append(i)
    return buckets


def hardest_first(lengths):
    heap = [(-n, i) for i, n in enumerate(lengths)]
    heapq.heapify(heap)
    return heap


model = nn.Linear(6, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
for epoch in range(3):
    order = ids_by_length(LENGTHS)
    rng.shuffle(order)
    buckets = length_buckets(LENGTHS, 3)
    first_bucket = buckets[min(buckets)]
    warm = first_bucket.pop()
    heap = hardest_first(LENGTHS)
    hard = [heapq.heappop(heap)[1] for _ in range(3)]
    batch = order[:4] + [warm] + hard
    xb = data[batch].to(device)
    yb = target[batch].to(device)
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} batch {batch} left {len(first_bucket)} heap {len(heap)} loss {loss.item():.6f}")

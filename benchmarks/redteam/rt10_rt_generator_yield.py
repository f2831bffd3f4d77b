# corpus: runnable
# Batch generators with `yield` inside their loops: each batch buffer is built per iteration and
# handed to the consumer, which keeps it (a replay list) or normalises it in place. A buffer
# built once before the generator's loop would be the same tensor in every batch.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
data = torch.randn(12, 3)


def one_hot_batches(n, k):
    for i in range(n):
        onehot = torch.zeros(k)
        onehot[i % k] = 1.0
        yield onehot


def padded(rows, width):
    for r in rows:
        buf = torch.zeros(width)
        yield buf, r


def windows(x, size):
    for start in range(0, x.shape[0], size):
        mask = torch.ones(size)
        yield x[start:start + size], mask


replay = list(one_hot_batches(4, 3))
print("replay", [t.tolist() for t in replay])

kept = []
for buf, r in padded(data[:3], 4):
    buf[:3] = r
    kept.append(buf)
print("padded", [round(t.sum().item(), 4) for t in kept])

masks = []
for chunk, mask in windows(data, 4):
    mask.mul_(chunk.abs().mean(1))
    masks.append(mask)
print("masks", [round(m.sum().item(), 4) for m in masks])


def staged():
    yield from one_hot_batches(3, 3)


seen = [t for t in staged()]
seen[0].add_(5.0)
print("staged", [t.tolist() for t in seen])

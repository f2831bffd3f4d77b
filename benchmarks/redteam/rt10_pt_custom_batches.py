# corpus: runnable
# DataLoaders whose collate function returns batch objects of the program (a dataclass-like
# `Batch` with its own `.to(device)`, a named tuple of lists with a `pin_memory` method that counts
# calls). Their `.to` takes only a device; the loop moves whole batch objects.
import collections

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Batch:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def to(self, device):
        return Batch(self.x.to(device), self.y.to(device))


def collate(rows):
    xs, ys = zip(*rows)
    return Batch(torch.stack(xs), torch.stack(ys))


ds = TensorDataset(torch.randn(16, 3), torch.randn(16, 1))
loader = DataLoader(ds, batch_size=4, collate_fn=collate)
model = torch.nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    total = 0.0
    for batch in loader:
        batch = batch.to(device)
        loss = torch.nn.functional.mse_loss(model(batch.x), batch.y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print("epoch", epoch, round(total, 5))

Pair = collections.namedtuple("Pair", "x names")


def collate_named(rows):
    xs, ys = zip(*rows)
    return Pair(torch.stack(xs), [float(v) for v in torch.stack(ys).flatten()])


loader2 = DataLoader(ds, batch_size=8, collate_fn=collate_named)
for pair in loader2:
    x = pair.x.to(device)
    print(type(pair.names).__name__, round(model(x).sum().item(), 5), round(sum(pair.names), 5))

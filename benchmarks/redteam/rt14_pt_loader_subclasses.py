# corpus: runnable
# Loaders built by a subclass whose `__init__` has a fixed signature or already passes
# `pin_memory`, by a factory function, by a `partial` over the subclass; batches of a class whose
# `.to(device)` takes no `non_blocking`; a loader with a seeded generator and a `worker_init_fn`.
import functools

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
ds = TensorDataset(torch.arange(12.0).view(6, 2), torch.arange(6))


class FixedLoader(DataLoader):
    def __init__(self, dataset, batch_size):
        super().__init__(dataset, batch_size=batch_size, shuffle=False)


class UnpinnedLoader(DataLoader):
    def __init__(self, dataset, **kw):
        super().__init__(dataset, pin_memory=False, **kw)


def make_loader(dataset, bs):
    return DataLoader(dataset, batch_size=bs)


for name, dl in (
    ("fixed", FixedLoader(ds, 2)),
    ("unpinned", UnpinnedLoader(ds, batch_size=3)),
    ("factory", make_loader(ds, 3)),
    ("partial", functools.partial(FixedLoader, ds)(3)),
):
    s = 0.0
    for xb, yb in dl:
        xb = xb.to(device)
        s += float(xb.sum())
    print(name, s)


class Batch:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def to(self, device):
        return Batch(self.x.to(device), self.y.to(device))


def collate(rows):
    return Batch(torch.stack([r[0] for r in rows]), torch.stack([r[1] for r in rows]))


dl = DataLoader(ds, batch_size=2, collate_fn=collate)
tot = 0.0
for batch in dl:
    batch = batch.to(device)
    tot += float(batch.x.sum())
print("custom batch", tot)

g = torch.Generator().manual_seed(7)
OFFSET = 3


def init_fn(worker_id):
    torch.manual_seed(OFFSET + worker_id)


dl = DataLoader(ds, batch_size=2, shuffle=True, generator=g, worker_init_fn=init_fn)
order = []
for xb, yb in dl:
    order.extend(yb.to(device).tolist())
print("seeded order", order)

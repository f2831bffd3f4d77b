# corpus: runnable
# Red team 47 (blind): the common "attribute dict" batch: `class AttrDict(dict): __getattr__ =
# dict.__getitem__`, returned by a collate_fn and moved field by field with a recursive `to_device`
# helper. The batch is read both as `batch.x` and `batch["x"]`. A missing key raises KeyError, not
# AttributeError, so `hasattr(batch, name)` raises too.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(11)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class AttrDict(dict):
    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__


def collate(items):
    xs = torch.stack([it[0] for it in items])
    ys = torch.stack([it[1] for it in items])
    return AttrDict(x=xs, y=ys, n=len(items), ids=[int(it[2]) for it in items])


def to_device(obj, dev):
    if torch.is_tensor(obj):
        return obj.to(dev)
    if isinstance(obj, dict):
        return type(obj)({k: to_device(v, dev) for k, v in obj.items()})
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_device(v, dev) for v in obj)
    return obj


X = torch.randn(36, 5)
Y = (X[:, 0] - X[:, 2] > 0).long()
ids = torch.arange(100, 136)
loader = DataLoader(TensorDataset(X, Y, ids), batch_size=6, shuffle=True,
                    collate_fn=collate, generator=torch.Generator().manual_seed(3))

model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
crit = nn.CrossEntropyLoss()

for epoch in range(3):
    seen = []
    total = 0.0
    for batch in loader:
        batch = to_device(batch, device)
        logits = model(batch.x)
        loss = crit(logits, batch["y"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * batch.n
        seen.extend(batch.ids)
    print(epoch, type(batch).__name__, "%.10f" % (total / len(X)), seen[:6], sorted(batch.keys()))

with torch.no_grad():
    acc = (model(X.to(device)).argmax(1).cpu() == Y).float().mean().item()
print("acc %.6f" % acc)

# corpus: runnable
# Wave 2 (a device in the program): loaders whose keywords come from a `functools.partial`, a
# dataclass's `asdict`, a wrapper's `**kw` with `setdefault`; a staging buffer refilled after
# each copy to the device.
import dataclasses
import functools

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(2, 1).to(device)
ds = TensorDataset(torch.arange(12, dtype=torch.float32).reshape(6, 2), torch.arange(6))


@dataclasses.dataclass
class LoaderCfg:
    batch_size: int = 2
    shuffle: bool = False
    pin_memory: bool = False


make_loader = functools.partial(DataLoader, batch_size=3, pin_memory=False)
loader = make_loader(ds)
cfg_loader = DataLoader(ds, **dataclasses.asdict(LoaderCfg()))
seen = []
for xb, yb in loader:
    xb = xb.to(device)
    seen.append(round(model(xb).sum().item(), 4))
for xb, yb in cfg_loader:
    xb = xb.to(device)
    seen.append(round(model(xb).sum().item(), 4))
print("loaders", seen)


def loader_for(data, **kw):
    kw.setdefault("pin_memory", False)
    return DataLoader(data, batch_size=4, **kw)


tot = []
for xb, yb in loader_for(ds):
    tot.append(round(model(xb.to(device)).sum().item(), 4))
print("wrapped", tot)

staging = torch.empty(3, 2)
sums = []
for step in range(2):
    staging.copy_(ds.tensors[0][step * 3:(step + 1) * 3])
    xb = staging.to(device)
    staging.zero_()
    sums.append(round(model(xb).sum().item(), 4))
print("staged", sums)

# corpus: runnable
# Keyword edits where the call's keywords come from elsewhere: a `functools.partial` of the
# DataLoader or a factory that already binds the keyword, `**kwargs` from a dataclass's `asdict`,
# a config dict carrying `device`, a wrapper forwarding `*args, **kwargs`.
import dataclasses
import functools

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cpu"
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
    seen.append(xb.sum().item())
for xb, yb in cfg_loader:
    xb = xb.to(device)
    seen.append(xb.sum().item())
print("loaders", seen)

zeros64 = functools.partial(torch.zeros, dtype=torch.float64)
opts = {"dtype": torch.float16}
a = zeros64(3).to(device)
b = torch.ones(3, **opts).to(device)


def make(*args, **kwargs):
    return torch.full(*args, **kwargs)


c = make((2,), 1.5, dtype=torch.float64).to(device)
print("factories", a.dtype, b.dtype, c.dtype)


def loader_for(data, **kw):
    kw.setdefault("pin_memory", False)
    return DataLoader(data, batch_size=4, **kw)


tot = 0.0
for xb, yb in loader_for(ds):
    tot += xb.to(device).sum().item()
print("wrapped", tot)

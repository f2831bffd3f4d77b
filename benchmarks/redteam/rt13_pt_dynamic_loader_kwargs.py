# corpus: runnable
# Loader keywords built dynamically: `DataLoader(ds, **vars(args))` from an argparse namespace,
# `**dict(cfg)`, `**cfg.__dict__`, `**dict(zip(keys, values))`, a `ChainMap`, `pin_memory`
# passed by position, a dataclass instance's fields by `dataclasses.astuple` positional.
import argparse
import collections
import dataclasses

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(2, 1).to(device)
ds = TensorDataset(torch.arange(12, dtype=torch.float32).reshape(6, 2), torch.arange(6))

parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=2)
parser.add_argument("--pin_memory", action="store_true")
args = parser.parse_args([])


class Cfg:
    def __init__(self):
        self.batch_size = 3
        self.pin_memory = False


loaders = {
    "vars": DataLoader(ds, **vars(args)),
    "dict": DataLoader(ds, **dict(batch_size=2, pin_memory=False)),
    "__dict__": DataLoader(ds, **Cfg().__dict__),
    "zip": DataLoader(ds, **dict(zip(["batch_size", "pin_memory"], [3, False]))),
    "chainmap": DataLoader(ds, **collections.ChainMap({"pin_memory": False}, {"batch_size": 2})),
    "positional": DataLoader(ds, 2, False, None, None, 0, None, False),
}
for name, loader in loaders.items():
    tot = []
    for xb, yb in loader:
        xb = xb.to(device)
        tot.append(round(model(xb).sum().item(), 4))
    print(name, tot, loader.pin_memory)

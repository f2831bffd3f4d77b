# corpus: runnable
# Objects whose `__len__`, `__getitem__`, `__contains__`, `__bool__` and `__iter__` read a table
# the loop changes (not the object itself): `len(obj)`, `obj[0]`, `3 in obj`, `bool(obj)`,
# `list(obj)` look like plain reads of a name nobody rebinds.
import torch
from torch.utils.data import Dataset

torch.set_num_threads(1)
CFG = {"n": 2, "items": [1.0]}


class Rows(Dataset):
    def __len__(self):
        return CFG["n"]

    def __getitem__(self, i):
        return torch.tensor(float(i))


class Bag:
    def __getitem__(self, i):
        return CFG["items"][i]

    def __contains__(self, v):
        return v in CFG["items"]

    def __bool__(self):
        return CFG["n"] > 3

    def __iter__(self):
        return iter(CFG["items"])


ds, bag = Rows(), Bag()
out = []
for step in range(3):
    a = torch.zeros(len(ds))
    b = torch.tensor(bag[0])
    c = torch.tensor(2.0 in bag)
    d = torch.tensor(bool(bag))
    e = torch.tensor(list(bag))
    CFG["n"] += 1
    CFG["items"].insert(0, float(step + 2))
    out.append((a.numel(), float(b), bool(c), bool(d), e.tolist()))
print("dunders", out)

# corpus: runnable
# Second wave: integer outputs through modules the first fixes type by construction: a program
# class whose forward returns an `nn.Identity` submodule's output, a `Sequential` of dtype-keeping
# modules, heads in an `nn.ModuleDict`, a module picked with `getattr`, a module in a plain dict.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class LabelPath(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Identity()

    def forward(self, y):
        return self.head(y)


path = LabelPath()
keep = nn.Sequential(nn.Identity(), nn.Flatten(0))
heads = nn.ModuleDict({"labels": nn.Identity(), "proj": nn.Linear(4, 2)})
table = {"labels": nn.Identity()}
batches = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(3)]
a = b = c = d = 0
for x, y in batches:
    y = y.to(device)
    a += path(y).sum().item()
    b += keep(y).sum().item()
    c += heads["labels"](y).sum().item()
    d += table["labels"](y).sum().item()
print(a, b, c, d)
e = 0
for x, y in batches:
    e += getattr(path, "head")(y.to(device)).sum().item()
print(e)

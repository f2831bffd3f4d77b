# corpus: runnable
# Restarts that reset a parametrized weight by assignment: torch.nn.utils.parametrize hands
# the assigned tensor to `right_inverse` and the parametrization's `original` adopts its memory
# (`set_`); training then changes the tensor the loop built. A second layer with an
# symmetric parametrization registered with unsafe=True.
import torch
import torch.nn as nn
from torch.nn.utils import parametrize

torch.manual_seed(0)
torch.set_num_threads(1)


class Identity(nn.Module):
    def forward(self, w):
        return w

    def right_inverse(self, w):
        return w


class Symmetric(nn.Module):
    def forward(self, w):
        return w.triu() + w.triu(1).t()

    def right_inverse(self, w):
        return w


xs = torch.randn(6, 4)
ys = torch.randn(6, 4)
layer = nn.Linear(4, 4)
parametrize.register_parametrization(layer, "weight", Identity())
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
finals = []
for run in range(3):
    layer.weight = torch.full((4, 4), 0.1)
    for x, y in zip(xs, ys):
        opt.zero_grad()
        (layer(x) - y).pow(2).mean().backward()
        opt.step()
    finals.append(round(layer.weight.sum().item(), 4))
print("identity", finals)

sym = nn.Linear(4, 4, bias=False)
parametrize.register_parametrization(sym, "weight", Symmetric(), unsafe=True)
opt2 = torch.optim.SGD(sym.parameters(), lr=0.1)
finals = []
for run in range(3):
    sym.weight = torch.eye(4)
    for x, y in zip(xs, ys):
        opt2.zero_grad()
        (sym(x) - y).pow(2).mean().backward()
        opt2.step()
    finals.append(round(sym.weight.sum().item(), 4))
print("unsafe", finals)

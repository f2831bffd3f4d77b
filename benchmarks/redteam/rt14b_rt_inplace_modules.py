# corpus: runnable
# Modules built with `inplace=True` change the tensor they are called on: `nn.ReLU(inplace=True)`,
# `nn.LeakyReLU(0.1, True)` (positional), a `Sequential` whose first layer is an in-place ReLU,
# `nn.Dropout(p=0.0, inplace=True)` in train mode; and an aliased functional
# (`from torch.nn.functional import leaky_relu as lrelu`) with `inplace` by position.
import torch
import torch.nn as nn
from torch.nn.functional import leaky_relu as lrelu

torch.manual_seed(0)
torch.set_num_threads(1)
h = torch.linspace(-1, 1, 5)
act = nn.ReLU(inplace=True)
vals = []
for step in range(3):
    c = torch.tensor(h.numpy().copy())
    act(h)
    vals.append(c.sum().item())
print("ReLU(inplace=True)", vals)

g = torch.linspace(-2, 2, 5)
leaky = nn.LeakyReLU(0.5, True)
vals = []
for step in range(3):
    c = torch.tensor(g.numpy().copy())
    leaky(g)
    vals.append(c.sum().item())
print("LeakyReLU positional", vals)

x = torch.linspace(-1, 1, 4)
seq = nn.Sequential(nn.ReLU(inplace=True), nn.Identity())
vals = []
for step in range(2):
    c = torch.tensor(x.numpy().copy())
    seq(x)
    vals.append(c.sum().item())
print("Sequential in-place first layer", vals)

y = torch.linspace(-3, 3, 7)
vals = []
for step in range(3):
    c = torch.tensor(y.numpy().copy())
    lrelu(y, 0.5, True)
    vals.append(c.sum().item())
print("aliased functional", vals)

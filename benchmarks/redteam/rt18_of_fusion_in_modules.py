# corpus: runnable
# Hand-written ReLUs inside `forward` methods and helpers where the input is an integer
# tensor, is changed in place, has another name reading it, or holds NaNs from a log of a
# negative number; the activation's result is returned as the input object (identity read).
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)


class Gate(nn.Module):
    def forward(self, x):
        return x * (x > 0)


class Clip(nn.Module):
    def forward(self, x):
        x[x < 0] = 0
        return x


def act(x):
    return torch.where(x > 0, x, torch.tensor(0.0))


def leaky(x):
    return torch.where(x >= 0, x, x * 0.01)


g, c = Gate(), Clip()
ints = torch.tensor([-3, 2, 5])
print("A int", g(ints).dtype, g(ints).tolist())
z = torch.randn(4)
alias = z
out = c(z)
print("B in place", out is z, alias.tolist())
logs = torch.log(torch.tensor([-1.0, 0.0, 2.0]))
print("C nan", g(logs).tolist(), act(logs).tolist())
print("D int where", act(ints).dtype, act(ints).tolist())
print("E leaky ints", leaky(ints).dtype, leaky(ints).tolist())
h = torch.tensor([-0.0, -1e-45, 1e-45])
print("F tiny", [repr(v) for v in g(h).tolist()], [repr(v) for v in leaky(h).tolist()])

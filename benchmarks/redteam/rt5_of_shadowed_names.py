# corpus: runnable
# Hand-written leaky ReLUs in code that rebinds the names the fused op would be spelled
# with: `B, C, F, T = x.shape` in an audio block, a local `torch` argument, a parameter
# named `nn`, a comprehension variable, a class attribute named F.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SpecBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 2, 3, padding=1)

    def forward(self, x):
        B, C, F, T = x.shape
        h = self.conv(x)
        h = torch.where(h > 0, h, 0.2 * h)
        return h.reshape(B, C * F * T).mean(1)


blk = SpecBlock().to(device)
print("spec", [round(v, 5) for v in blk(torch.randn(2, 2, 4, 5, device=device)).tolist()])


def act_with_module(x, nn=None):
    return torch.where(x > 0, x, 0.1 * x)


print("nn param", act_with_module(torch.tensor([-1.0, 2.0])).tolist())


def act_local_functional(h):
    functional = None
    return torch.where(h > 0, h, 0.3 * h)


print("local functional", act_local_functional(torch.tensor([-2.0, 1.0])).tolist())


def mixed(h):
    outs = [torch.where(F > 0, F, 0.1 * F) for F in h]
    return torch.stack(outs)


print("comprehension", mixed(torch.tensor([[-1.0, 1.0], [2.0, -3.0]])).tolist())


def act_torch_param(torch_mod, h):
    torch = torch_mod
    return torch.where(h > 0, h, 0.5 * h)


print("torch param", act_torch_param(torch, torch.tensor([-4.0, 4.0])).tolist())


def f_after(h):
    y = torch.where(h > 0, h, 0.25 * h)
    F = 3
    return y * F


print("F after", f_after(torch.tensor([-4.0, 4.0])).tolist())

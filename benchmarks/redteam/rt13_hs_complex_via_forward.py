# corpus: runnable
# Complex values reaching an `.item()` accumulation through a module's forward or a helper's
# return (red team 12's open item): a spectral layer returning `torch.fft.rfft`, a helper returning
# `view_as_complex`, a forward returning a complex product.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Spectral(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return torch.fft.rfft(self.lin(x))


def phasor(x):
    return torch.view_as_complex(x.reshape(-1, 2))


class Rot(nn.Module):
    def __init__(self):
        super().__init__()
        self.theta = nn.Parameter(torch.tensor(0.3))

    def forward(self, x):
        return x * torch.polar(torch.ones(()), self.theta)


model = Spectral().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
xs = torch.randn(4, 2, 8).to(device)
acc = 0.0
for x in xs:
    spec = model(x)
    loss = spec.abs().pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc += spec[..., 1].mean().item()
print("forward complex", acc)

tot = 0
for x in xs:
    z = phasor(x)
    tot += z.sum().item()
print("helper complex", tot)

rot = Rot().to(device)
ropt = torch.optim.SGD(rot.parameters(), lr=0.01)
s = 0.0
for x in xs:
    y = rot(x)
    loss = y.abs().mean()
    ropt.zero_grad()
    loss.backward()
    ropt.step()
    s += y.mean().item()
print("rotated", s)

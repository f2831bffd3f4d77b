# corpus: runnable
# Evaluation helpers (`.eval()` then the model) whose model needs grad mode inside its own
# forward: an energy model sampling by Langevin steps (`torch.autograd.grad` in forward), a
# forward choosing its path by `torch.is_grad_enabled()`, a test-time-adapting forward that
# back-propagates, a forward registering a hook on a tensor, a Grad-CAM helper; the loop reads
# `requires_grad` of the helper's output. A no_grad wrap changes each of them.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4)
xs = [torch.randn(4, 3) for _ in range(3)]


class Langevin(nn.Module):
    def __init__(self):
        super().__init__()
        self.energy = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, x):
        x = x.clone().requires_grad_(True)
        for _ in range(2):
            e = self.energy(x).sum()
            (g,) = torch.autograd.grad(e, x)
            x = (x - 0.1 * g).detach().requires_grad_(True)
        return x.detach()


ebm = Langevin()


def sample(x):
    ebm.eval()
    return ebm(x)


samples = []
for x in xs:
    samples.append(sample(x))
print("langevin", [f"{v:.10f}" for v in torch.stack(samples).flatten().tolist()])


class TwoPaths(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)

    def forward(self, x):
        if torch.is_grad_enabled():
            return self.lin(x) * 2.0
        return self.lin(x)


tp = TwoPaths()


def run_tp(x):
    tp.eval()
    return tp(x)


vals = []
for x in xs:
    vals.append(run_tp(x).sum().item())
print("two-paths", [f"{v:.10f}" for v in vals])


class Adaptive(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 1)
        self.opt = torch.optim.SGD(self.lin.parameters(), lr=0.1)

    def forward(self, x):
        out = self.lin(x)
        self.opt.zero_grad()
        out.pow(2).mean().backward()
        self.opt.step()
        return out.detach()


ad = Adaptive()


def adapt_and_score(x):
    ad.eval()
    return ad(x)


scores = []
for x in xs:
    scores.append(adapt_and_score(x).sum().item())
print("adaptive", [f"{v:.10f}" for v in scores])


class Hooked(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.seen = []

    def forward(self, x):
        h = self.lin(x)
        h.register_hook(lambda g: self.seen.append(g.sum().item()))
        return h


hk = Hooked()


def run_hooked(x):
    hk.eval()
    return hk(x)


hooked = []
for x in xs:
    hooked.append(run_hooked(x).sum().item())
print("hooked", [f"{v:.10f}" for v in hooked])


class Cam(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 4)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        self.act = self.lin(x)
        self.act.retain_grad()
        return self.head(self.act)


cam = Cam()


def explain(x):
    cam.eval()
    out = cam(x)
    out[:, 0].sum().backward()
    return cam.act.grad.clone()


maps = []
for x in xs:
    cam.zero_grad()
    maps.append(explain(x))
print("cam", [f"{v:.10f}" for v in torch.stack(maps).flatten().tolist()])

plain = nn.Linear(3, 2)


def run_plain(x):
    plain.eval()
    return plain(x)


req = []
for x in xs:
    out = run_plain(x)
    req.append(out.requires_grad)
print("requires_grad", req)

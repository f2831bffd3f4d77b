# corpus: runnable
# Evaluation loops (no backward anywhere) whose forwards have effects that grad mode changes: a
# custom layer that caches its output and a later training step back-propagates through the
# cache; a `register_buffer` EMA updated from a parameter with an in-place op guarded by
# try/except (an in-place op on a leaf that requires grad raises only under grad mode); an
# output parameter created from the activations; `torch.is_inference_mode_enabled`.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
xs = [torch.randn(4, 3) for _ in range(3)]


class Cache(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
        self.last = None

    def forward(self, x):
        self.last = self.lin(x)
        return self.last


net = Cache()
net.eval()
scores = []
for x in xs:
    scores.append(round(net(x).sum().item(), 5))
print("A eval", scores)
net.train()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
try:
    net.last.pow(2).mean().backward()
    opt.step()
    print("A trained", [round(p.sum().item(), 5) for p in net.parameters()])
except RuntimeError as exc:
    print("A failed", type(exc).__name__)


class Tracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(3))
        self.register_buffer("hits", torch.zeros(()))

    def forward(self, x):
        try:
            self.w.add_(0.0)
        except RuntimeError:
            self.hits += 1
        return x @ self.w


tr = Tracker().eval()
outs = []
for x in xs:
    outs.append(round(tr(x).sum().item(), 5))
print("B hits", outs, tr.hits.item())


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 1)
        self.kept = []

    def forward(self, x):
        h = self.lin(x)
        self.kept.append(nn.Parameter(h.detach().clone()))
        return h


pr = Probe().eval()
for x in xs:
    pr(x)
print("C params", [k.requires_grad for k in pr.kept], [k.grad_fn is None for k in pr.kept])


class View(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        y = self.lin(x)
        y.view(-1)[0] = 0.0
        return y


vw = View().eval()
res = []
for x in xs:
    try:
        res.append(round(vw(x).sum().item(), 5))
    except RuntimeError:
        res.append("err")
print("D view write", res)

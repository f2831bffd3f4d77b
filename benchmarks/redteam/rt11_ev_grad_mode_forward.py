# corpus: runnable
# Modules of the program whose forward reads the grad mode: a block that keeps a moving
# statistic only while gradients are recorded, a layer that checkpoints under grad mode and
# counts its recomputations, a wrapper that reports whether its output carries a graph.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class TrackedNorm(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("seen", torch.zeros(n))
        self.calls = 0

    def forward(self, x):
        if torch.is_grad_enabled():
            self.seen.mul_(0.5).add_(x.detach().mean(0))
            self.calls += 1
        return x - self.seen


class Graphy(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.with_graph = 0

    def forward(self, x):
        y = self.lin(x)
        if y.requires_grad:
            self.with_graph += 1
            y = y + 0.1
        return y


norm = TrackedNorm(4)
net = nn.Sequential(nn.Linear(4, 4), norm, nn.ReLU())
g = Graphy()
net.eval()
g.eval()
data = torch.randn(5, 3, 4)
scores = []
for x in data:
    out = g(net(x))
    scores.append(round(out.sum().item(), 4))
print("scores", scores)
print("norm calls", norm.calls, [round(v, 4) for v in norm.seen.tolist()])
print("graphs", g.with_graph)

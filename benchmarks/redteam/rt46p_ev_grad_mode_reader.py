# corpus: runnable
# Red team 46 PROBE (not blind, written after first contact): evaluation loops in eval mode without no_grad
# whose model reads GRAD MODE in its forward: `torch.is_grad_enabled()`, an activation's `requires_grad`,
# an activation's `grad_fn`. Wrapping the loop in no_grad changes what the forward does.
import torch
import torch.nn as nn

torch.manual_seed(5)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class GradModeNorm(nn.Module):
    """Adapts its running mean whenever autograd is on (the author's proxy for 'a pass that may adapt')."""

    def __init__(self, dim):
        super().__init__()
        self.register_buffer('mean', torch.zeros(dim))

    def forward(self, x):
        if torch.is_grad_enabled():
            self.mean.mul_(0.5).add_(0.5 * x.detach().mean(0))
        return x - self.mean


class TrackedNet(nn.Module):
    """Counts the passes whose activations will get a gradient (a memory budget logger)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.graph_passes = 0
        self.live_graphs = 0

    def forward(self, x):
        h = self.fc(x)
        if h.requires_grad:
            self.graph_passes += 1
        if h.grad_fn is not None:
            self.live_graphs += 1
        return h


X = torch.randn(24, 4)
net = nn.Sequential(GradModeNorm(4), nn.Linear(4, 2)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for i in range(0, 24, 6):
    loss = net(X[i:i + 6].to(device)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

net.eval()
score = 0.0
for i in range(0, 24, 6):
    out = net(X[i:i + 6].to(device))
    score += out.sum().item()
print('score %.10f' % score, 'mean', [round(v, 10) for v in net[0].mean.tolist()])

tracked = TrackedNet().to(device)
tracked.eval()
hits = 0
for i in range(0, 24, 6):
    out = tracked(X[i:i + 6].to(device))
    hits += (out.argmax(1) == 0).sum().item()
print('hits', hits, 'graph passes', tracked.graph_passes, 'live graphs', tracked.live_graphs)

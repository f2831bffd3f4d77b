# corpus: runnable
# Red team 59 probe (NOT blind): per-step tensors built from loop-invariant data (they look hoistable) that
# autograd machinery writes in place out of the loop's sight: a custom Function's backward adds into a buffer it
# got through `apply`, a forward hook bound with functools.partial (registered and removed each step) marks a
# mask, a tensor hook (a lambda on a checkpointed block's output) adds into a per-step tensor, and an LBFGS
# closure accumulates its evaluations into a history tensor.
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(5952)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D = 256, 6
X = torch.randn(N, D, device=device)
Yr = (X[:, :2].sum(1, keepdim=True) ** 2).to(device)
net = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.01)


class GradMeter(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, meter):
        ctx.meter = meter
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        ctx.meter.add_(grad.abs().mean())
        return grad, None


def mark(mask, module, inputs, output):
    mask.mul_(((output > 0).float().mean(0) > 0.3).float())


def block(h):
    return torch.tanh(h)


# 1: Function.apply with a meter
m1 = []
for i in range(0, N, 32):
    meter = torch.zeros(1, device=device)
    h = GradMeter.apply(net(X[i:i + 32]), meter)
    loss = F.mse_loss(h, Yr[i:i + 32])
    opt.zero_grad()
    loss.backward()
    opt.step()
    m1.append(meter.item())

# 2: a partial-bound forward hook marks a mask
m2 = []
for i in range(0, N, 32):
    alive = torch.ones(16, device=device)
    handle = net[1].register_forward_hook(functools.partial(mark, alive))
    out = net(X[i:i + 32])
    handle.remove()
    m2.append(alive.sum().item())

# 3: a tensor hook on a checkpointed block's output adds the gradient it sees into a per-step tensor
m3 = []
for i in range(0, N, 32):
    seen = torch.zeros(1, device=device)
    out = checkpoint(block, net(X[i:i + 32]), use_reentrant=False)
    out.register_hook(lambda g: seen.add_(g.abs().sum()) and None)
    (out ** 2).sum().backward()
    m3.append(round(seen.item(), 4))
    opt.zero_grad()

# 4: an LBFGS closure accumulates into a history tensor
w = torch.zeros(D, 1, device=device, requires_grad=True)
lbfgs = torch.optim.LBFGS([w], lr=0.5, max_iter=4)
m4 = []
for i in range(0, N, 64):
    hist = torch.zeros(1, device=device)

    def closure():
        lbfgs.zero_grad()
        loss = F.mse_loss(X[i:i + 64] @ w, Yr[i:i + 64])
        loss.backward()
        hist.add_(loss.detach())
        return loss
    lbfgs.step(closure)
    m4.append(hist.item())

print("1", [round(v, 5) for v in m1])
print("2", m2)
print("3", m3)
print("4", [round(v, 4) for v in m4])

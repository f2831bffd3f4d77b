# corpus: runnable
# Red team 53 probe (not blind): loop-invariant tensor constructors whose result is then given state:
# requires_grad set on the next line and .grad read (a hoist would accumulate gradients across iterations),
# initialised in place by nn.init / a local helper / a .data write, written through out=, kept in a list
# and mutated later through the list.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5320)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
X = torch.rand(64, 8, device=device)
Y = torch.randint(0, 3, (64,), device=device)


def randomise_(t, scale):
    t.uniform_(-scale, scale)
    return t


res = []
for b in range(4):
    xb, yb = X[b * 16:(b + 1) * 16], Y[b * 16:(b + 1) * 16]
    delta = torch.zeros(1, 8, device=device)
    delta.requires_grad_(True)
    F.cross_entropy(net(xb + delta), yb).backward()
    res.append(delta.grad.abs().sum().item())

for b in range(4):
    xb, yb = X[b * 16:(b + 1) * 16], Y[b * 16:(b + 1) * 16]
    u = torch.zeros(1, 8, device=device).requires_grad_()
    F.cross_entropy(net(xb + u), yb).backward()
    res.append(u.grad.abs().sum().item())

for b in range(4):
    start = torch.empty(1, 8, device=device)
    nn.init.uniform_(start, -0.1, 0.1)
    res.append(net(X[:4] + start).sum().item())

for b in range(4):
    noise = torch.zeros(1, 8, device=device)
    randomise_(noise, 0.05 * (b + 1))
    res.append(net(X[:4] + noise).sum().item())

for b in range(4):
    w = torch.ones(8, device=device)
    w.data.mul_(0.5 + b)
    res.append((X[:4] * w).sum().item())

for b in range(4):
    buf = torch.zeros(8, device=device)
    torch.add(X[b], 1.0, out=buf)
    res.append(buf.sum().item())

kept = []
for b in range(4):
    scale = torch.ones(3, device=device)
    kept.append(scale)
    kept[-1][b % 3] = 2.0 + b
    res.append(scale.sum().item())

masks = []
for b in range(4):
    m = torch.ones(8, dtype=torch.bool, device=device)
    masks.append(m)
masks[1][3] = False
res.append(sum(int(m.sum().item()) for m in masks))

print([round(v, 6) for v in res])

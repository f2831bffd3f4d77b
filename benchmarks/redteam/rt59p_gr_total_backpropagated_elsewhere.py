# corpus: runnable
# Red team 59 probe (NOT blind): loss totals accumulated WITH their graphs that look like log-only totals, but are
# back-propagated by code the loop does not show: a function reading the global total (called with no argument),
# a callback looked up by name in a dict, a closure handed to optimizer.step that returns the total, and a tensor
# hook registered on the total itself.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5953)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D = 192, 5
X = torch.randn(N, D, device=device)
Y = (X @ torch.randn(D, 1, device=device)).tanh()
net = nn.Sequential(nn.Linear(D, 12), nn.Tanh(), nn.Linear(12, 1)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05)

# 1: a function reading the global total
total = 0.0


def flush_total():
    opt.zero_grad()
    (total / 4).backward()
    opt.step()


r1 = []
for epoch in range(3):
    total = 0.0
    for i in range(0, N, 48):
        loss = F.mse_loss(net(X[i:i + 48]), Y[i:i + 48])
        total += loss
    r1.append(round(float(total), 5))
    flush_total()

# 2: a callback looked up by name
CALLBACKS = {"epoch_end": lambda t: (opt.zero_grad(), t.backward(), opt.step())}
r2 = []
for epoch in range(3):
    running = 0
    for i in range(0, N, 48):
        running = running + F.mse_loss(net(X[i:i + 48]), Y[i:i + 48])
    r2.append(round(float(running), 5))
    CALLBACKS["epoch_end"](running / 4)

# 3: optimizer.step(closure) returns the accumulated total
r3 = []
for epoch in range(3):
    acc = torch.zeros((), device=device)
    for i in range(0, N, 48):
        acc = acc + F.mse_loss(net(X[i:i + 48]), Y[i:i + 48])

    def closure():
        opt.zero_grad()
        (acc / 4).backward()
        return acc
    r3.append(round(opt.step(closure).item(), 5))

# 4: a hook on the total itself records its gradient
r4 = []
for epoch in range(3):
    s = 0.0
    for i in range(0, N, 48):
        s += F.mse_loss(net(X[i:i + 48]), Y[i:i + 48])
    s.register_hook(lambda g: r4.append(round(g.item(), 3)))
    opt.zero_grad()
    (s * 0.25).backward()
    opt.step()

print("1", r1)
print("2", r2)
print("3", r3)
print("4", r4)
print("checksum", round(sum(p.detach().double().sum().item() for p in net.parameters()), 5))

# corpus: runnable
# Constants next to draws a hoist would reorder: a dropout module in train mode applied to a
# fresh `torch.ones`, MC-dropout evaluation (`model.train()` at test time), `torch.manual_seed`
# per step then a constant then a draw, a `Generator` seeded per step.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
drop = nn.Dropout(0.5)
drop.train()
masks = []
for step in range(3):
    m = drop(torch.ones(6))
    masks.append(m.tolist())
print("dropout of ones", masks)

net = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5), nn.Linear(3, 1))
net.train()
x = torch.ones(1, 3)
samples = []
with torch.no_grad():
    for k in range(4):
        samples.append(round(net(x).item(), 5))
print("mc dropout", samples)

vals = []
for step in range(3):
    torch.manual_seed(step)
    base = torch.ones(3) * 2
    noise = torch.randn(3)
    vals.append(round((base + noise).sum().item(), 5))
print("seed per step", vals)

g = torch.Generator()
outs = []
for step in range(3):
    g.manual_seed(100 + step)
    c = torch.full((2,), 0.5)
    r = torch.rand(2, generator=g)
    outs.append(round((c * r).sum().item(), 5))
print("generator per step", outs)

# corpus: runnable
# Evaluation loops that switch the grad mode by statement: `torch.set_grad_enabled(False)` at
# the top of the body (left switched off after the loop, which the program reads and then
# restores), `torch.set_grad_enabled(True)` at the end of a helper called in the loop, and a
# `torch.enable_grad()` region computing an input-gradient norm.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
xs = torch.randn(3, 5, 4)

model.eval()
scores = []
for x in xs:
    torch.set_grad_enabled(False)
    scores.append(round(model(x).sum().item(), 4))
after = torch.is_grad_enabled()
torch.set_grad_enabled(True)
print("statement", scores, after)


def score(x):
    torch.set_grad_enabled(False)
    s = model(x).max().item()
    torch.set_grad_enabled(True)
    return s


model.eval()
res = []
for x in xs:
    res.append(round(score(x), 4))
    res.append(torch.is_grad_enabled())
print("helper", res)

model.eval()
gnorms = []
for x in xs:
    out = model(x)
    with torch.enable_grad():
        xg = x.clone().requires_grad_(True)
        (g,) = torch.autograd.grad(model(xg).sum(), xg)
    gnorms.append((round(g.norm().item(), 4), out.requires_grad))
print("enable_grad", gnorms)

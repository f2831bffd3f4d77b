# corpus: runnable
# Test-time adaptation written with a prediction generator: the evaluation loop yields each
# batch's output and the consumer, between two yields, takes an entropy-minimisation step on it.
# A `with torch.no_grad():` around the generator's loop would stay active while the consumer runs
# (grad mode is global, the generator is suspended inside the `with`): its backward would fail.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
batches = [torch.randn(6, 4) for _ in range(4)]
opt = torch.optim.SGD(model.parameters(), lr=0.05)


def predictions(loader):
    model.eval()
    for x in loader:
        out = model(x)
        yield out


entropies = []
for out in predictions(batches):
    p = out.softmax(1)
    ent = -(p * p.log()).sum(1).mean()
    opt.zero_grad()
    ent.backward()
    opt.step()
    entropies.append(round(ent.item(), 5))
print("tta", entropies)


def scores(loader):
    model.eval()
    for x in loader:
        yield model(x).max(1).values


pseudo = nn.Linear(3, 1)
popt = torch.optim.SGD(list(model.parameters()) + list(pseudo.parameters()), lr=0.01)
trace = []
for s in scores(batches):
    w = torch.ones(3, requires_grad=True)
    reg = (s.mean() * w).sum()
    popt.zero_grad()
    reg.backward()
    trace.append(round(w.grad.sum().item(), 5))
print("scores", trace)

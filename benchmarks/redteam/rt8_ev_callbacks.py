# corpus: runnable
# Loops without `backward` in sight whose outputs are handed to code that differentiates them:
# a callback list (saliency), a dict cache back-propagated by a later function, a trainer object
# that files the outputs in `self` and fine-tunes on them, a `torch.enable_grad()` helper.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [torch.randn(8, 4) for _ in range(3)]


class Saliency:
    def __init__(self):
        self.maps = []

    def on_batch_end(self, x, out):
        (g,) = torch.autograd.grad(out.sum(), x)
        self.maps.append(round(g.abs().mean().item(), 5))


callbacks = [Saliency()]
for x in data:
    x = x.to(device).requires_grad_(True)
    out = model(x)
    for cb in callbacks:
        cb.on_batch_end(x, out)
print("saliency", callbacks[0].maps)

cache = {}
for i, x in enumerate(data):
    cache[i] = model(x.to(device))


def consolidate():
    loss = sum(v.pow(2).mean() for v in cache.values())
    opt.zero_grad()
    loss.backward()
    opt.step()


consolidate()
print("after consolidate", round(model.weight.sum().item(), 5))


class Distiller:
    def __init__(self, net):
        self.net = net
        self.outs = []

    def collect(self, loader):
        for x in loader:
            self.outs.append(self.net(x.to(device)))

    def fit(self):
        loss = torch.stack([o.logsumexp(-1).mean() for o in self.outs]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


d = Distiller(model)
d.collect(data)
d.fit()
print("after distill", round(model.weight.sum().item(), 5))

preds = []
for x in data:
    preds.append(model(x.to(device)).argmax(-1))
print("preds", torch.cat(preds).tolist())

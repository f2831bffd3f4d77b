# corpus: runnable
# Evaluation loops inside generator functions: a `with torch.no_grad():` wrapped around a loop
# that yields stays entered while the caller runs between `next()` calls, so the caller's own
# training steps (backward) would run with grad mode off.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Linear(3, 1)
probe = nn.Linear(3, 1)
opt = torch.optim.SGD(probe.parameters(), lr=0.1)
xs = [torch.randn(4, 3) for _ in range(3)]


def predictions(batches):
    model.eval()
    for x in batches:
        out = model(x)
        yield out.sum().item()


log = []
for score in predictions(xs):
    loss = probe(xs[0]).pow(2).mean()
    opt.zero_grad()
    ok = loss.requires_grad
    if ok:
        loss.backward()
        opt.step()
    log.append((round(score, 6), ok, torch.is_grad_enabled()))
print("interleaved", log)
print("probe", [round(v, 6) for v in probe.weight.flatten().tolist()])


def scored(batches):
    for x in batches:
        y = model(x)
        yield y


grads = []
for y in scored(xs):
    w = torch.ones(1, requires_grad=True)
    (w * 2).sum().backward()
    grads.append(float(w.grad))
    grads.append(y.requires_grad)
print("grads", grads)

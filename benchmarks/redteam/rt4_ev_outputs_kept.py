# corpus: runnable
# Evaluation loops (model.eval(), no backward inside) whose outputs are back-propagated later
# through a route the loop itself does not show: an attribute, a dict's values, `extend`, a
# preallocated list, `torch.autograd.grad`, a hook registered on the output, `retain_grad()`.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
batches = [torch.randn(3, 4) for _ in range(3)]


class Tracker:
    def __init__(self):
        self.last = None


tracker = Tracker()
model.eval()
for xb in batches:  # paef: refuse eval-without-no-grad
    tracker.last = model(xb)
tracker.last.sum().backward()
print(model[0].weight.grad.abs().sum())
model.zero_grad()

store = {}
for i, xb in enumerate(batches):  # paef: refuse eval-without-no-grad
    store[f"b{i}"] = model(xb)
torch.stack(list(store.values())).pow(2).mean().backward()
print(model[2].bias.grad)
model.zero_grad()

outs = []
for xb in batches:  # paef: refuse eval-without-no-grad
    outs.extend([model(xb)])
(g,) = torch.autograd.grad(outs[0].sum(), model[0].bias)
print(g)

slots = [None] * len(batches)
for i, xb in enumerate(batches):  # paef: refuse eval-without-no-grad
    slots[i] = model(xb)
print(slots[-1].requires_grad)

grads_seen = []
for xb in batches:  # paef: refuse eval-without-no-grad
    o = model(xb)
    o.register_hook(lambda grad: grads_seen.append(grad.shape))
    o.retain_grad()
    kept = o
kept.sum().backward()
print(grads_seen, kept.grad is not None)

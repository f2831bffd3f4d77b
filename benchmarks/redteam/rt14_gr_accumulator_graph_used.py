# corpus: runnable
# `total += loss` accumulations whose graph is needed after the loop: a meta-learning outer
# step via `torch.autograd.grad(total, params)`, `total` returned to a caller that
# back-propagates, a list of per-epoch totals stacked and back-propagated, a gradient-penalty
# total built with `create_graph=True`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
w = torch.randn(3, requires_grad=True)
xs = torch.randn(4, 3)
meta = 0.0
for x in xs:
    loss = (w * x).sum() ** 2
    meta += loss
(gw,) = torch.autograd.grad(meta, [w])
print("meta grad", [round(v, 4) for v in gw.tolist()])


def inner_total(model, batches):
    total = 0
    for b in batches:
        total += model(b).pow(2).mean()
    return total


net = nn.Linear(3, 1)
t = inner_total(net, xs.split(2))
t.backward()
print("returned total grad", round(net.weight.grad.sum().item(), 5))

net2 = nn.Linear(3, 1)
history = []
for epoch in range(2):
    run = torch.zeros(())
    for b in xs.split(2):
        run = run + net2(b).abs().mean()
    history.append(run)
torch.stack(history).sum().backward()
print("stacked totals grad", round(net2.bias.grad.item(), 5))

v = torch.randn(3, requires_grad=True)
gp_total = 0.0
for x in xs:
    out = (v * x).tanh().sum()
    (g,) = torch.autograd.grad(out, v, create_graph=True)
    gp_total += g.pow(2).sum()
gp_total.backward()
print("gp grad", [round(a, 4) for a in v.grad.tolist()])

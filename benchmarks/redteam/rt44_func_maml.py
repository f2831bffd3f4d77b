# corpus: runnable
# Red team 44 (blind): torch.func. A MAML-style meta-test adapts a copy of the parameters with
# torch.autograd.grad inside a partial-bound helper, evaluates with functional_call; per-sample gradient
# norms come from vmap(grad(...)); a meta-train loop back-propagates through the inner step.
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
meta_opt = torch.optim.Adam(model.parameters(), lr=0.01)


def make_task(seed):
    gen = torch.Generator().manual_seed(seed)
    amp = 0.5 + 2 * torch.rand(1, generator=gen)
    phase = 3 * torch.rand(1, generator=gen)
    xs = 4 * torch.rand(10, 1, generator=gen) - 2
    xq = 4 * torch.rand(10, 1, generator=gen) - 2
    return xs.to(device), (amp * torch.sin(xs + phase)).to(device), xq.to(device), (amp * torch.sin(xq + phase)).to(device)


def inner_sgd(params, xs, ys, steps, lr, create_graph):
    fast = dict(params)
    for _ in range(steps):
        loss = F.mse_loss(functional_call(model, fast, (xs,)), ys)
        grads = torch.autograd.grad(loss, list(fast.values()), create_graph=create_graph)
        fast = {k: p - lr * g for (k, p), g in zip(fast.items(), grads)}
    return fast


train_adapt = functools.partial(inner_sgd, steps=1, lr=0.1, create_graph=True)
test_adapt = functools.partial(inner_sgd, steps=3, lr=0.1, create_graph=False)

for it in range(20):
    xs, ys, xq, yq = make_task(it)
    fast = train_adapt(dict(model.named_parameters()), xs, ys)
    meta_loss = F.mse_loss(functional_call(model, fast, (xq,)), yq)
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    if it % 5 == 4:
        print("meta", it, "%.10f" % meta_loss.item())

before, after = [], []
for seed in range(100, 104):
    xs, ys, xq, yq = make_task(seed)
    pred = model(xq)
    before.append(F.mse_loss(pred, yq).item())
    fast = test_adapt(dict(model.named_parameters()), xs, ys)
    after.append(F.mse_loss(functional_call(model, fast, (xq,)), yq).item())
print("before", ["%.10f" % v for v in before])
print("after", ["%.10f" % v for v in after])

params = {k: v.detach() for k, v in model.named_parameters()}


def sample_loss(p, x, y):
    return F.mse_loss(functional_call(model, p, (x[None],)), y[None])


per_sample = vmap(grad(sample_loss), in_dims=(None, 0, 0))
norms = []
for seed in range(200, 203):
    xs, ys, _, _ = make_task(seed)
    out = model(xs)
    g = per_sample(params, xs, ys)
    norms.append(torch.stack([v.flatten(1).norm(dim=1) for v in g.values()]).sum(0).max().item())
print("per-sample max norms", ["%.10f" % v for v in norms])

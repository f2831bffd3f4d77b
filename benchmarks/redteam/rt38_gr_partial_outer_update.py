# corpus: runnable
# Red team 38 (blind): first-order meta-learning (Reptile/MAML-style outer loss). For each meta-batch the
# query losses of several tasks are summed into `meta_loss`, then handed to an outer update built with
# functools.partial (the optimizer bound in advance), which back-propagates it. A plain epoch total of
# the inner losses is kept for logging as well.
import functools

import torch
import torch.nn as nn

torch.manual_seed(17)
torch.set_num_threads(1)

net = nn.Sequential(nn.Linear(3, 10), nn.Tanh(), nn.Linear(10, 1))
meta_opt = torch.optim.Adam(net.parameters(), lr=0.01)
tasks = [(torch.randn(10, 3), torch.randn(3, 1)) for _ in range(4)]


def outer_update(opt, total):
    opt.zero_grad()
    total.backward()
    opt.step()
    return sum(p.grad.abs().sum().item() for p in net.parameters())


update = functools.partial(outer_update, meta_opt)
log_every = lambda step, value: print("meta", step, f"{float(value):.12f}")

for meta_step in range(5):
    meta_loss = 0.0
    inner_total = 0.0
    for xs, w in tasks:
        ys = xs @ w
        support, query = slice(0, 5), slice(5, 10)
        inner = ((net(xs[support]) - ys[support]) ** 2).mean()
        inner_total += inner.item()
        meta_loss += ((net(xs[query]) - ys[query]) ** 2).mean()
    gnorm = update(meta_loss)
    log_every(meta_step, meta_loss)
    print(meta_step, f"{inner_total:.12f}", f"{gnorm:.12f}")

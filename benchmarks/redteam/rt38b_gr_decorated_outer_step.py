# corpus: runnable
# Red team 38, wave 2 (blind): first-order meta-learning where the outer step is a decorator of the
# program's own: `@outer_step(meta_opt)` wraps a function that sums the query losses of several tasks and
# returns the sum; the decorator's wrapper back-propagates what the function returns and steps.
import functools

import torch
import torch.nn as nn

torch.manual_seed(17)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

net = nn.Sequential(nn.Linear(3, 10), nn.Tanh(), nn.Linear(10, 1)).to(device)
meta_opt = torch.optim.Adam(net.parameters(), lr=0.01)
tasks = [(torch.randn(10, 3, device=device), torch.randn(3, 1, device=device)) for _ in range(4)]


def outer_step(opt):
    def deco(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            total = fn(*args, **kwargs)
            opt.zero_grad()
            total.backward()
            opt.step()
            return total
        return run
    return deco


@outer_step(meta_opt)
def meta_batch(batch):
    meta_loss = 0.0
    for xs, w in batch:
        ys = xs @ w
        meta_loss += ((net(xs[5:]) - ys[5:]) ** 2).mean()
    return meta_loss


for meta_step in range(5):
    value = meta_batch(tasks)
    print(meta_step, f"{float(value):.12f}", f"{net[0].weight.sum().item():.12f}")

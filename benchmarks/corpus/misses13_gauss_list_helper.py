# corpus: runnable
"""Evolution-strategies-style perturbations written the old way: each step draws a Python list of
`random.gauss` numbers, wraps it in `torch.Tensor(...)` and hands it to `to_var`, which moves
it to the GPU when there is one (`x.cuda()`, then `Variable(x)`). A second loop builds the same
list inline and calls `.to(device)`. Near-misses: a list of fixed numbers moved once before the
loop, a draw list kept on the host, a list of data values (not draws) through the helper."""
import random

import torch
import torch.nn as nn
from torch.autograd import Variable

random.seed(0)
torch.manual_seed(0)
torch.set_num_threads(1)
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")


def to_var(x, volatile=False):
    if use_cuda:
        x = x.cuda()
    return Variable(x, volatile=volatile)


policy = nn.Linear(6, 1)
if use_cuda:
    policy.cuda()
opt = torch.optim.SGD(policy.parameters(), lr=0.01)
scale = to_var(torch.Tensor([0.5, 1.0, 1.5, 2.0, 2.5, 3.0]))
for step in range(50):
    obs = to_var(torch.randn(16, 6))  # paef: ok cpu-then-move
    eps = to_var(torch.Tensor([random.gauss(0, 0.1) for _ in range(6)]))  # paef: expect cpu-then-move
    loss = (policy(obs * scale + eps) - 1.0).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

returns = []
for step in range(50):  # paef: expect eval-without-no-grad
    jitter = torch.tensor([random.gauss(0, 0.05) for _ in range(6)]).to(device)  # paef: expect cpu-then-move
    host_jitter = torch.tensor([random.gauss(0, 0.05) for _ in range(6)])
    weights = to_var(torch.Tensor([float(k) for k in range(6)]))  # paef: ok redundant-tensor; ok cpu-then-move
    out = policy(to_var(torch.ones(4, 6)) * weights + jitter)  # paef: ok cpu-then-move; ok redundant-tensor
    returns.append(round(float(out.sum()) + float(host_jitter.sum()), 4))  # paef: ok host-sync
print(returns[-3:], round(loss.item(), 4))

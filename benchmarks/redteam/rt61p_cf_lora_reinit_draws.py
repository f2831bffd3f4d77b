# corpus: runnable
# Red team 61 probe (NOT blind): LoRA adapters re-initialised for each of several tasks inside the task loop.
# The A matrices are drawn on the host by initialisers that fill an empty tensor in place (nn.init.kaiming_uniform_,
# .normal_ in a separate statement of a helper, torch.nn.init.trunc_normal_) and then moved to the device; B is a
# plain zero tensor moved (exact: safe to build on the device). Building the drawn ones on the device would draw
# from the device's generator: other numbers on a GPU, the same on the CPU.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6121)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

D, C, R = 16, 4, 4
base = nn.Linear(D, C).to(device)
base.requires_grad_(False)


def init_a(r, d):
    w = torch.empty(r, d)
    nn.init.kaiming_uniform_(w, a=math.sqrt(5))
    return w


def init_a_normal(r, d):
    w = torch.empty(r, d)
    w.normal_(0.0, 1.0 / math.sqrt(d))
    return w


results = []
for task in range(4):
    gen = torch.Generator().manual_seed(100 + task)
    x = torch.randn(200, D, generator=gen).to(device)
    y = torch.randint(0, C, (200,), generator=gen).to(device)
    if task == 0:
        A = nn.Parameter(init_a(R, D).to(device))
    elif task == 1:
        A = nn.Parameter(init_a_normal(R, D).to(device))
    elif task == 2:
        A = nn.Parameter(nn.init.kaiming_uniform_(torch.empty(R, D), a=math.sqrt(5)).to(device))
    else:
        A = nn.Parameter(nn.init.trunc_normal_(torch.empty(R, D), std=0.2).to(device))
    B = nn.Parameter(torch.zeros(C, R).to(device))
    opt = torch.optim.Adam([A, B], lr=1e-2)
    for step in range(30):
        out = base(x) + x @ A.t() @ B.t() * 2.0
        loss = F.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    results.append((round(loss.item(), 6), round(A.detach().double().sum().item(), 6)))
print('results', results)
print('checksum', round(sum(a for _, a in results), 6))

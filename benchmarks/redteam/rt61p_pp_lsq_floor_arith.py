# corpus: runnable
# Red team 61 probe (NOT blind): learned-step-size quantisation where the step's floor and other bookkeeping
# values are read back with .item() and rebuilt as tensors every step, many with host arithmetic in float64
# between the read and the rebuild (a product, a difference of two reads, round, max, math.sqrt, negation), some
# plain (a float32 scale, a float16 copy, an int32 count, an explicit float64 dtype). Only the plain ones could be
# kept on the device with the same values.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6124)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C = 256, 12, 3
x = torch.randn(N, D).to(device)
y = torch.randint(0, C, (N,)).to(device)
net = nn.Linear(D, C).to(device)
step = nn.Parameter(torch.tensor(0.05, device=device))
opt = torch.optim.SGD(list(net.parameters()) + [step], lr=0.05)
rows = []
for epoch in range(3):
    for i in range(0, N, 32):
        w = net.weight
        q = torch.round(w / step).clamp(-8, 7)
        wq = w + (q * step - w).detach()
        loss = F.cross_entropy(F.linear(x[i:i + 32], wq, net.bias), y[i:i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
        s = w.detach().abs().max() / 7
        lo, hi = w.detach().min(), w.detach().max()
        h16 = s.half()
        cnt = (q != 0).sum().int()
        a = torch.tensor(s.item() * 0.05 + 1e-6)
        b = torch.tensor((hi.item() - lo.item()) / 255.0)
        c = torch.tensor(round(-lo.item() / s.item()))
        d = torch.tensor(max(s.item(), 1e-3))
        e = torch.tensor(math.sqrt(s.item()))
        f = torch.tensor(-s.item())
        g = torch.tensor(s.item())
        h = torch.tensor(h16.item())
        k = torch.tensor(cnt.item())
        m = torch.tensor(s.item(), dtype=torch.float64)
        with torch.no_grad():
            step.clamp_(min=float(a))
        rows.append(torch.stack([a.double(), b.double(), c.double(), d.double(), e.double(), f.double(),
                                 g.double(), h.double(), k.double(), m]))
table = torch.stack(rows)
print('last', [f'{v:.9g}' for v in table[-1].tolist()])
print('checksum', f'{table.sum().item():.12g}', f'{step.item():.9g}')

# corpus: runnable
# Red team 62 probe (not blind): index tables and masks of contrastive losses built per step from a batch
# size. Where the size is a constant (a drop_last loader's `BS`, a per-epoch size read once before the inner
# loop) building them once is right; where it is the size of what the step got (a crop's rows, the slice of a
# permutation, a size a helper returns, a size kept on the sampler and changed by it) it is not.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(6212)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, E, BS, TAU = 84, 8, 6, 16, 0.3
data = torch.randn(N, D)
net = nn.Sequential(nn.Linear(D, 20), nn.ReLU(), nn.Linear(20, E)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)


def views(x):
    return x + 0.2 * torch.randn_like(x), x + 0.2 * torch.randn_like(x)


class GrowingSampler:
    def __init__(self, n, start):
        self.n, self.size, self.pos = n, start, 0

    def next_batch(self):
        idx = torch.arange(self.pos, min(self.pos + self.size, self.n))
        self.pos = (self.pos + self.size) % self.n
        self.size = min(self.size + 4, 28)
        return idx


def take(perm, start, size):
    part = perm[start:start + size]
    return part, part.numel()


out = []
# 1. drop_last: every batch has BS rows (hoisting the tables is right)
loader = DataLoader(TensorDataset(data), batch_size=BS, shuffle=True, drop_last=True)
for (xb,) in loader:
    xb = xb.to(device)
    a, b = views(xb)
    za, zb = F.normalize(net(a), dim=1), F.normalize(net(b), dim=1)
    labels = torch.arange(BS, device=device)
    loss = F.cross_entropy(za @ zb.T / TAU, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    out.append(round(loss.item(), 5))

# 2. a batch-size schedule: the size is fixed within an epoch only
for epoch, size in enumerate([12, 20]):
    perm = torch.randperm(N)
    for s in range(0, N - size + 1, size):
        xb = data[perm[s:s + size]].to(device)
        a, b = views(xb)
        z = F.normalize(net(torch.cat([a, b])), dim=1)
        mask = torch.eye(2 * size, dtype=torch.bool, device=device)
        tgt = torch.arange(2 * size, device=device).roll(size)
        loss = F.cross_entropy((z @ z.T / TAU).masked_fill(mask, -1e9), tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
    out.append(round(loss.item(), 5))

# 3. sizes that change per step
sampler = GrowingSampler(N, 8)
perm = torch.randperm(N)
for step in range(5):
    idx = sampler.next_batch()
    part, n = take(perm, step * 17, 17)
    xb = data[idx].to(device)
    a, b = views(xb)
    za, zb = F.normalize(net(a), dim=1), F.normalize(net(b), dim=1)
    rows = torch.arange(sampler.size - 4, device=device)[: xb.size(0)]
    loss = F.cross_entropy(za @ zb.T / TAU, rows)
    xp = data[part].to(device)
    zp = F.normalize(net(xp), dim=1)
    self_mask = torch.eye(n, dtype=torch.bool, device=device)
    loss = loss + 0.1 * (zp @ zp.T).masked_fill(self_mask, 0.0).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    out.append(round(loss.item(), 5))

# 4. multi-crop: one table per crop size inside the crop loop
crops = {16: data[:BS, :8], 8: data[:BS, :8][:, ::2].repeat(1, 2)}
for rep in range(2):
    for size, xc in crops.items():
        xc = xc.to(device)
        z1, z2 = F.normalize(net(views(xc)[0]), dim=1), F.normalize(net(views(xc)[1]), dim=1)
        diag = torch.arange(xc.size(0), device=device)
        loss = F.cross_entropy(z1 @ z2.T / TAU, diag)
        opt.zero_grad()
        loss.backward()
        opt.step()
        out.append(round(loss.item(), 5))

print("out", out)
print("checksum", round(sum(out), 5))

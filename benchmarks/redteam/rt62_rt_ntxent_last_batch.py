# corpus: runnable
# Red team 62 (blind): SimCLR-style contrastive pretraining on made-up 12-feature points, two noisy views per
# sample. The NT-Xent loss builds its labels (`torch.arange`) and its self-mask (`torch.eye(2B)`) from the
# batch it is handed; the pretraining loader keeps the short last batch (drop_last=False, 100 = 3*32 + 4),
# while the second stage uses a sampler that always yields full batches. A batch-size warm-up doubles the
# batch in the config dict after the first epoch; a fixed "anchor" batch is scored every epoch.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(6201)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, E = 100, 12, 6
points = torch.randn(N, D)
cfg = {"batch": 16, "tau": 0.2, "epochs": 3}


def two_views(x):
    return x + 0.25 * torch.randn_like(x), x * (1 + 0.1 * torch.randn_like(x))


net = nn.Sequential(nn.Linear(D, 24), nn.ReLU(), nn.Linear(24, E)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)


def nt_xent(z1, z2, tau):
    B = z1.size(0)
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.T / tau
    self_mask = torch.eye(2 * B, dtype=torch.bool, device=z.device)
    sim = sim.masked_fill(self_mask, -1e9)
    targets = torch.cat([torch.arange(B, 2 * B), torch.arange(0, B)]).to(z.device)
    return F.cross_entropy(sim, targets)


history = []
for epoch in range(cfg["epochs"]):
    loader = DataLoader(TensorDataset(points), batch_size=cfg["batch"], shuffle=True, drop_last=False)
    total, seen = 0.0, 0
    for (xb,) in loader:
        xb = xb.to(device)
        v1, v2 = two_views(xb)
        loss = nt_xent(net(v1), net(v2), cfg["tau"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * xb.size(0)
        seen += xb.size(0)
    history.append(round(total / seen, 5))
    if epoch == 0:
        cfg["batch"] *= 2  # batch-size warm-up

# Stage 2: a fixed batch size from a sampler that only yields full batches; the positives' index table is
# built per step from the configured size (the same every step here).
FIXED = 20
perm_all = torch.randperm(N)
align = []
for step in range(N // FIXED):
    idx = perm_all[step * FIXED:(step + 1) * FIXED]
    xb = points[idx].to(device)
    v1, v2 = two_views(xb)
    z1, z2 = F.normalize(net(v1), dim=1), F.normalize(net(v2), dim=1)
    pos = torch.arange(FIXED, device=device)
    logits = z1 @ z2.T / cfg["tau"]
    loss = F.cross_entropy(logits, pos)
    opt.zero_grad()
    loss.backward()
    opt.step()
    align.append(round((z1 * z2).sum(1).mean().item(), 5))

# A running count of how often each sample was its own nearest neighbour, kept per anchor in a table built
# once per pass and updated in place.
anchor = points[:10].to(device)
hits = []
for rep in range(3):
    a1, a2 = two_views(anchor)
    with torch.no_grad():
        s = F.normalize(net(a1), dim=1) @ F.normalize(net(a2), dim=1).T
    ok = torch.zeros(10, dtype=torch.long, device=device)
    ok += (s.argmax(1) == torch.arange(10, device=device)).long()
    hits.append(ok.sum().item())

print("history", history)
print("align", align)
print("hits", hits)
print("checksum", round(sum(history) + sum(align) + sum(hits), 4))

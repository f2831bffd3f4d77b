# corpus: runnable
# Red team 61 (blind): linear probing on cached features. A randomly initialised encoder stands in for a
# pretrained one; its features are computed ONCE under no_grad (stored in half precision to save memory, in a
# dict keyed by sample id and in a list of per-batch tensors), then L2-normalised IN PLACE after some per-sample
# statistics were read from them. A logistic-regression probe trains for several epochs on the cache; per-class
# feature norms are collected into a dict of lists; the per-sample "hardness" (loss of each cached sample) is read
# back with .item() and turned into a sampling weight tensor for the next epoch.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6104)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, E, C = 360, 24, 32, 6
protos = torch.randn(C, D)
ys = torch.randint(0, C, (N,))
xs = protos[ys] * 1.5 + torch.randn(N, D)
ids = torch.randperm(10_000)[:N]
xs, ys = xs.to(device), ys.to(device)

encoder = nn.Sequential(nn.Linear(D, 64), nn.GELU(), nn.Linear(64, E)).to(device)
encoder.requires_grad_(False)
encoder.eval()

by_id = {}
chunks = []
first_coord = []
norms_by_class = {c: [] for c in range(C)}
with torch.no_grad():
    for i in range(0, N, 40):
        f = encoder(xs[i:i + 40]).half()
        chunks.append(f)
        for j in range(f.shape[0]):
            sid = int(ids[i + j])
            by_id[sid] = f[j]
            first_coord.append(f[j, 0])
            norms_by_class[int(ys[i + j])].append(f[j].float().norm().item())
    for f in chunks:
        f.div_(f.float().norm(dim=1, keepdim=True).half())

coord0 = torch.stack(first_coord).float()
mean_norm = torch.tensor([sum(v) / max(len(v), 1) for v in norms_by_class.values()])
feats = torch.cat(chunks).float()
assert torch.equal(by_id[int(ids[0])].float(), feats[0])

probe = nn.Linear(E, C).to(device)
opt = torch.optim.Adam(probe.parameters(), lr=2e-2)
weights = torch.ones(N, device=device)
epoch_loss = []
for epoch in range(8):
    order = torch.multinomial(weights, N, replacement=True, generator=None)
    total = 0.0
    for i in range(0, N, 60):
        idx = order[i:i + 60]
        loss = F.cross_entropy(probe(feats[idx] * 4.0), ys[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    hardness = []
    with torch.no_grad():
        per = F.cross_entropy(probe(feats * 4.0), ys, reduction='none')
        for k in range(N):
            hardness.append(per[k].item())
    weights = torch.tensor(hardness, device=device) + 0.1
    epoch_loss.append(total)

acc = (probe(feats * 4.0).argmax(1) == ys).float().mean().item()
print('norms', mean_norm.round(decimals=3).tolist())
print('coord0', round(coord0.sum().item(), 4), 'acc', round(acc, 4), 'loss', [round(v, 4) for v in epoch_loss])
print('checksum', round(weights.double().sum().item(), 5), round(sum(p.double().sum().item() for p in probe.parameters()), 6))

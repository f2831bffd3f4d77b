# corpus: runnable
# Red team 62 (blind): a supervised-contrastive (SupCon) loss written out by hand, as in many papers' code:
# exponentiated similarities with the self-pairs zeroed in place before the row sums, a positive-pair weight
# written into one column (in place, outside autograd), a hand sigmoid gate over the anchor scores whose exponentials are reused for a
# "hardness" statistic, and a standardisation of the embeddings that uses the unbiased variance.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6205)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C, E, TAU = 120, 9, 4, 6, 0.3
cent = torch.randn(C, D) * 1.2
lab = torch.randint(0, C, (N,))
dat = (cent[lab] + torch.randn(N, D)).to(device)
lab = lab.to(device)

enc = nn.Sequential(nn.Linear(D, 24), nn.Tanh(), nn.Linear(24, E)).to(device)
scorer = nn.Linear(E, 1).to(device)
opt = torch.optim.Adam(list(enc.parameters()) + list(scorer.parameters()), lr=3e-3)


def standardise(z):
    mu = z.mean(-1, keepdim=True)
    return (z - mu) / torch.sqrt(z.var(-1, keepdim=True) + 1e-5)


def supcon(z, y):
    B = z.size(0)
    z = F.normalize(standardise(z), dim=1)
    sim = z @ z.T / TAU
    sim = sim - sim.max(dim=1, keepdim=True).values.detach()
    e = torch.exp(sim)
    self_mask = torch.eye(B, dtype=torch.bool, device=z.device)
    e = e.masked_fill(self_mask, 0.0)
    prob = e / e.sum(dim=1, keepdim=True)
    pos = (y[:, None] == y[None, :]) & ~self_mask
    logp = torch.log(prob + 1e-12)
    return -(logp * pos).sum(1).div(pos.sum(1).clamp(min=1)).mean()


def gated(z):
    s = scorer(z).squeeze(1)
    ex = torch.exp(-s)
    gate = 1 / (1 + ex)
    hardness = ex.mean()
    return gate, hardness


def anchor_weights(z):
    w = torch.exp(z[:, :3])
    w[:, 0] = w[:, 0] * 2.0
    return w / w.sum(dim=1, keepdim=True)


trace = []
for epoch in range(5):
    perm = torch.randperm(N, device=device)
    for i in range(0, N, 40):
        idx = perm[i:i + 40]
        x = dat[idx] + 0.2 * torch.randn(len(idx), D, device=device)
        z = enc(x)
        gate, hard = gated(z)
        loss = supcon(z * gate[:, None], lab[idx]) + 0.01 * hard
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        zz = enc(dat)
        trace.append(round(supcon(zz, lab).item(), 5))
        aw = anchor_weights(zz)

print("trace", trace)
print("aw", round(aw[:, 0].mean().item(), 6))
print("checksum", round(sum(trace) + aw[:, 0].sum().item(), 5))

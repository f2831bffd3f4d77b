# corpus: runnable
# Red team 62 (blind): BYOL-style pretraining (online net + predictor, EMA target updated under no_grad) on
# made-up 10-feature data with Gaussian-noise and feature-dropout views, then the usual SSL evaluation: a
# kNN monitor that fills a feature bank in eval mode, and a linear probe that freezes the encoder's batch norm
# (eval mode) and trains a fresh linear head on its outputs. The probe helper is the "evaluation" of the run.
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6204)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C, E = 192, 10, 3, 8
centers = torch.randn(C, D) * 1.5
y_all = torch.randint(0, C, (N,))
x_all = (centers[y_all] + torch.randn(N, D)).to(device)
y_all = y_all.to(device)

online = nn.Sequential(nn.Linear(D, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, E)).to(device)
predictor = nn.Sequential(nn.Linear(E, 16), nn.ReLU(), nn.Linear(16, E)).to(device)
target = copy.deepcopy(online)
for p in target.parameters():
    p.requires_grad_(False)
opt = torch.optim.Adam(list(online.parameters()) + list(predictor.parameters()), lr=2e-3)


def view(x):
    keep = (torch.rand_like(x) > 0.15).float()
    return (x + 0.3 * torch.randn_like(x)) * keep


def byol_loss(p, z):
    return 2 - 2 * F.cosine_similarity(p, z.detach(), dim=-1).mean()


@torch.no_grad()
def ema_update(tau):
    for po, pt in zip(online.parameters(), target.parameters()):
        pt.mul_(tau).add_(po.detach(), alpha=1 - tau)


def knn_monitor(enc, xs, ys, k=5):
    enc.eval()
    bank = torch.empty(len(xs), E, device=device)
    for i in range(0, len(xs), 64):
        bank[i:i + 64] = F.normalize(enc(xs[i:i + 64]), dim=1)
    sims = bank @ bank.T
    sims.fill_diagonal_(-2)
    nn_idx = sims.topk(k, dim=1).indices
    votes = F.one_hot(ys[nn_idx], C).sum(1)
    enc.train()
    return (votes.argmax(1) == ys).float().mean().item()


def linear_probe(enc, xs, ys, epochs=15):
    enc.eval()
    head = nn.Linear(E, C).to(device)
    hopt = torch.optim.SGD(head.parameters(), lr=0.5)
    for _ in range(epochs):
        for i in range(0, len(xs), 48):
            feats = enc(xs[i:i + 48]).detach()
            loss = F.cross_entropy(head(feats), ys[i:i + 48])
            hopt.zero_grad()
            loss.backward()
            hopt.step()
    acc = (head(enc(xs)).argmax(1) == ys).float().mean().item()
    enc.train()
    return acc


monitor, steps = [], 0
for epoch in range(4):
    perm = torch.randperm(N, device=device)
    for i in range(0, N, 32):
        xb = x_all[perm[i:i + 32]]
        v1, v2 = view(xb), view(xb)
        loss = byol_loss(predictor(online(v1)), target(v2)) + byol_loss(predictor(online(v2)), target(v1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        steps += 1
        ema_update(0.99 - 0.05 * (1 - steps / 24))
    monitor.append(round(knn_monitor(online, x_all, y_all), 5))

probe = linear_probe(online, x_all, y_all)
print("knn", monitor)
print("probe", round(probe, 5))
print("checksum", round(sum(monitor) + probe + target[0].weight.sum().item(), 5))

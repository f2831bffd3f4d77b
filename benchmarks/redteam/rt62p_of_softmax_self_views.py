# corpus: runnable
# Red team 62 probe (not blind): hand-written NT-Xent / kNN softmaxes whose self-pairs are zeroed between the
# exponential and the row sum through something other than the name itself: a diagonal view, a row-block
# view, a flat strided view, and a helper that zeroes the diagonal in place. The normalised values then differ
# from a softmax of the similarities (the self-pair's share is gone).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6211)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, E, C, TAU = 48, 8, 5, 3, 0.4
cent = torch.randn(C, D)
lab = torch.randint(0, C, (N,))
x = (cent[lab] + 0.8 * torch.randn(N, D)).to(device)
lab = lab.to(device)
enc = nn.Sequential(nn.Linear(D, 16), nn.ReLU(), nn.Linear(16, E)).to(device)
opt = torch.optim.Adam(enc.parameters(), lr=5e-3)


def drop_self(t):
    t.fill_diagonal_(0.0)


def neighbour_weights(z):
    e = torch.exp(z @ z.T / TAU)
    drop_self(e)
    return e / e.sum(dim=1, keepdim=True)


def soft_knn(z, y):
    sim = z @ z.T / TAU
    e = torch.exp(sim)
    diag = e.diagonal()
    diag.zero_()
    w = e / e.sum(dim=1, keepdim=True)
    return (w @ F.one_hot(y, C).float()).argmax(1)


def positive_share(z, y):
    sim = z @ z.T / TAU
    e = torch.exp(sim)
    flat = e.view(-1)
    flat[::z.size(0) + 1] = 0.0
    p = e / e.sum(dim=1, keepdim=True)
    same = (y[:, None] == y[None, :]).float()
    return (p * same).sum(1).mean()


def first_half_damped(z):
    e = torch.exp(z[:, :3])
    top = e[: z.size(0) // 2]
    top.mul_(0.5)
    return e / e.sum(dim=1, keepdim=True)


def train_loss(z, y):
    eye = torch.eye(z.size(0), dtype=torch.bool, device=z.device)
    sim = (z @ z.T / TAU).masked_fill(eye, -1e9)
    same = ((y[:, None] == y[None, :]) & ~eye).float()
    return -(F.log_softmax(sim, dim=1) * same).sum(1).div(same.sum(1).clamp(min=1)).mean()


log = []
for epoch in range(4):
    perm = torch.randperm(N, device=device)
    for i in range(0, N, 16):
        idx = perm[i:i + 16]
        z = F.normalize(enc(x[idx] + 0.1 * torch.randn(len(idx), D, device=device)), dim=1)
        loss = train_loss(z, lab[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        zz = F.normalize(enc(x), dim=1)
        acc = (soft_knn(zz, lab) == lab).float().mean().item()
        nw = neighbour_weights(zz).max(1).values.mean().item()
        fh = first_half_damped(zz)[:, 0].mean().item() + positive_share(zz, lab).item()
    log.append((round(acc, 5), round(nw, 5), round(fh, 5)))

print("log", log)
print("checksum", round(sum(sum(t) for t in log), 5))

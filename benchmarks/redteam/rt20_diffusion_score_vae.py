# corpus: runnable
# A VAE and a small normalising flow: reparameterisation noise per step, KL totals as floats,
# log-determinants summed over coupling layers into a per-step accumulator built with zeros and
# updated with `+=` (in place), an ELBO evaluation loop, and a per-step "bits" tally.
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(3)
device = "cuda" if torch.cuda.is_available() else "cpu"


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 8)
        self.dec = nn.Linear(2, 6)

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = h[:, :2], h[:, 2:4]
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        z = mu + eps * std
        return self.dec(z), mu, logvar


class Coupling(nn.Module):
    def __init__(self, flip):
        super().__init__()
        self.flip = flip
        self.s = nn.Linear(1, 1)
        self.t = nn.Linear(1, 1)

    def forward(self, x):
        a, b = (x[:, 1:], x[:, :1]) if self.flip else (x[:, :1], x[:, 1:])
        s = torch.tanh(self.s(a))
        b = b * s.exp() + self.t(a)
        out = torch.cat([b, a], 1) if self.flip else torch.cat([a, b], 1)
        return out, s.sum(1)


vae = VAE().to(device)
flows = nn.ModuleList([Coupling(i % 2 == 1) for i in range(4)]).to(device)
opt = torch.optim.Adam(list(vae.parameters()) + list(flows.parameters()), lr=1e-2)
batch_size = 10
data = [torch.randn(batch_size, 6) for _ in range(6)]
pts = [torch.randn(batch_size, 2) * 0.5 for _ in range(6)]

kl_total = 0.0
nll_total = 0.0
for epoch in range(2):
    for x, p in zip(data, pts):
        x, p = x.to(device), p.to(device)
        recon, mu, logvar = vae(x)
        kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
        rec = F.mse_loss(recon, x)
        log_det = torch.zeros(batch_size, device=device)
        z = p
        for f in flows:
            z, ld = f(z)
            log_det += ld
        log_pz = -0.5 * (z ** 2).sum(1) - math.log(2 * math.pi)
        nll = -(log_pz + log_det).mean()
        loss = rec + kl + nll
        opt.zero_grad()
        loss.backward()
        opt.step()
        kl_total += kl.item()
        nll_total += nll.item()
print("train", repr(kl_total), repr(nll_total))

# ELBO evaluation
vae.eval()
torch.manual_seed(9)
elbo = 0.0
per_batch = []
for x in data:
    x = x.to(device)
    recon, mu, logvar = vae(x)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    e = -(F.mse_loss(recon, x, reduction="sum") + kl)
    elbo += e.item()
    per_batch.append(e.item() / x.size(0))
print("elbo", repr(elbo), torch.tensor(per_batch).mean().item())

# flow log-likelihood in evaluation, accumulated into one buffer per batch
bits = []
for p in pts:
    p = p.to(device)
    acc = torch.zeros(batch_size, device=device)
    z = p
    for f in flows:
        z, ld = f(z)
        acc.add_(ld)
    bits.append((-(acc - 0.5 * (z ** 2).sum(1))).mean() / math.log(2))
print("bits", torch.stack(bits).tolist())

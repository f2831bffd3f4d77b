# corpus: runnable
"""DDPM on 8x8 single-channel blobs: a small U-Net with sinusoidal time embedding, the
epsilon-prediction objective, and ancestral sampling."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
T = 20


def linear_beta_schedule(timesteps):
    betas = torch.linspace(1e-4, 0.2, timesteps)
    alphas = 1.0 - betas
    alphas_cumprod = torch.cumprod(alphas, dim=0)
    return betas, alphas, alphas_cumprod


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)  # paef: ok redundant-tensor
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=-1)


class UNet(nn.Module):
    def __init__(self, ch=16, tdim=32):
        super().__init__()
        self.tdim = tdim
        self.temb = nn.Sequential(nn.Linear(tdim, ch), nn.SiLU(), nn.Linear(ch, ch))
        self.down1 = nn.Conv2d(1, ch, 3, padding=1)
        self.down2 = nn.Conv2d(ch, ch * 2, 3, stride=2, padding=1)
        self.mid = nn.Conv2d(ch * 2, ch * 2, 3, padding=1)
        self.up = nn.ConvTranspose2d(ch * 2, ch, 4, stride=2, padding=1)
        self.out = nn.Conv2d(ch * 2, 1, 3, padding=1)

    def forward(self, x, t):
        emb = self.temb(timestep_embedding(t, self.tdim))[:, :, None, None]
        h1 = F.silu(self.down1(x) + emb)
        h2 = F.silu(self.down2(h1))
        h2 = F.silu(self.mid(h2))
        u = F.silu(self.up(h2))
        return self.out(torch.cat([u, h1], dim=1))


def make_blobs(n):
    yy, xx = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
    cx, cy = torch.randint(2, 6, (n, 1, 1)), torch.randint(2, 6, (n, 1, 1))
    return (torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 3.0) * 2 - 1).unsqueeze(1)


data = make_blobs(512)
model = UNet().to(device)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for step in range(40):
    betas, alphas, alphas_cumprod = linear_beta_schedule(T)  # paef: expect redundant-tensor
    x0 = data[torch.randint(0, len(data), (32,))].to(device)
    t = torch.randint(0, T, (x0.shape[0],), device=device)
    noise = torch.randn_like(x0)
    a_bar = alphas_cumprod.to(device)[t].view(-1, 1, 1, 1)
    xt = a_bar.sqrt() * x0 + (1 - a_bar).sqrt() * noise
    loss = F.mse_loss(model(xt, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step} loss {loss.item():.4f}")

betas, alphas, alphas_cumprod = linear_beta_schedule(T)
betas, alphas, alphas_cumprod = betas.to(device), alphas.to(device), alphas_cumprod.to(device)


@torch.no_grad()
def sample(n):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, 1, 8, 8, generator=g).to(device)  # paef: refuse cpu-then-move
    for i in reversed(range(T)):
        t = torch.full((n,), i, dtype=torch.long).to(device)  # paef: expect-fix cpu-then-move
        eps = model(x, t)
        mean = (x - betas[i] / (1 - alphas_cumprod[i]).sqrt() * eps) / alphas[i].sqrt()
        if i > 0:
            x = mean + betas[i].sqrt() * torch.randn(x.shape, generator=g).to(device)  # paef: refuse cpu-then-move
        else:
            x = mean
    return x


s = sample(16)
print(f"sample mean {s.mean().item():.4f} std {s.std().item():.4f}")

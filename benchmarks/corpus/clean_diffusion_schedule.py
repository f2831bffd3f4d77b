# corpus: runnable
"""DDPM-style training on 2-D data: schedule precomputed, timesteps drawn per batch on the device."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
T = 50

betas = torch.linspace(1e-4, 0.05, T, device=device)
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
sqrt_ab = alphas_cumprod.sqrt()
sqrt_1mab = (1.0 - alphas_cumprod).sqrt()


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.t_emb = nn.Embedding(T, 16)
        self.net = nn.Sequential(nn.Linear(2 + 16, 64), nn.SiLU(), nn.Linear(64, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.t_emb(t)], dim=1))


model = Denoiser().to(device)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
ema = [p.detach().clone() for p in model.parameters()]
data = torch.randn(1024, 2, device=device) * torch.tensor([1.0, 0.3], device=device)

for step in range(100):
    x0 = data[torch.randint(0, len(data), (64,), device=device)]
    t = torch.randint(0, T, (64,), device=device)
    noise = torch.randn_like(x0)
    xt = sqrt_ab[t, None] * x0 + sqrt_1mab[t, None] * noise
    loss = F.mse_loss(model(xt, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for e, p in zip(ema, model.parameters()):
            e.mul_(0.99).add_(p, alpha=0.01)
    if step % 25 == 0:
        print(f"step {step} loss {loss.item():.4f}")
print(f"ema checksum {sum(e.sum() for e in ema).item():.4f}")

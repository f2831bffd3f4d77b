# corpus: runnable
"""Diffusion training that recomputes its noise schedule every step and draws timesteps on the CPU."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
T = 40
net = nn.Sequential(nn.Linear(3, 64), nn.SiLU(), nn.Linear(64, 2)).to(device)
opt = torch.optim.Adam(net.parameters(), lr=2e-3)
data = torch.randn(512, 2, device=device) * 0.5

for step in range(80):
    betas = torch.linspace(1e-4, 0.05, T, device=device)  # paef: expect-fix redundant-tensor
    alpha_bar = torch.cumprod(1 - betas, dim=0)  # paef: expect redundant-tensor
    x0 = data[(step * 64) % 512 : (step * 64) % 512 + 64]
    t = torch.randint(0, T, (64,)).to(device)  # paef: expect cpu-then-move; refuse cpu-then-move; refuse redundant-tensor
    eps = torch.randn_like(x0)
    ab = alpha_bar[t].unsqueeze(1)
    xt = ab.sqrt() * x0 + (1 - ab).sqrt() * eps
    pred = net(torch.cat([xt, t.float().unsqueeze(1) / T], dim=1))
    loss = ((pred - eps) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")

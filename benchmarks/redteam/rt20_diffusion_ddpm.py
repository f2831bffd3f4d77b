# corpus: runnable
# A tiny DDPM: a schedule kept as buffers (`register_buffer`), random timesteps and noise per
# training step, an EMA of the weights, and ancestral sampling under `no_grad` that updates `x`
# in place, with a per-step noise `z` that is zero on the last step. alphas_cumprod is also built
# by a Python loop over floats (double precision) as some tutorials do.
import copy

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2)
device = "cuda" if torch.cuda.is_available() else "cpu"
T = 20


class Schedule(nn.Module):
    def __init__(self, T):
        super().__init__()
        betas = torch.linspace(1e-4, 0.2, T)
        self.register_buffer("betas", betas)
        self.register_buffer("alphas", 1.0 - betas)
        self.register_buffer("alphas_cumprod", torch.cumprod(1.0 - betas, dim=0))


class Eps(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 32), nn.SiLU(), nn.Linear(32, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, (t.float() / T).unsqueeze(-1)], dim=-1))


sched = Schedule(T).to(device)
model = Eps().to(device)
ema = copy.deepcopy(model).requires_grad_(False)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
data = [torch.randn(16, 2) * 0.3 + 1.0 for _ in range(8)]

# the same schedule in double precision, by a loop over Python floats
acp = []
prod = 1.0
for b in sched.betas:
    prod *= 1.0 - b.item()
    acp.append(prod)
acp_t = torch.tensor(acp)
print("acp", repr(acp_t[-1].item()), (acp_t.float() - sched.alphas_cumprod.cpu()).abs().max().item())

total = 0.0
for epoch in range(2):
    for x0 in data:
        x0 = x0.to(device)
        t = torch.randint(0, T, (x0.size(0),), device=device)
        noise = torch.randn_like(x0)
        a = sched.alphas_cumprod[t].unsqueeze(-1)
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        loss = F.mse_loss(model(xt, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for pe, p in zip(ema.parameters(), model.parameters()):
                pe.lerp_(p, 0.1)
        total += loss.item()
print("train", repr(total))


@torch.no_grad()
def sample(net, n):
    x = torch.randn(n, 2, device=device)
    for i in reversed(range(T)):
        t = torch.full((n,), i, dtype=torch.long, device=device)
        z = torch.randn_like(x) if i > 0 else torch.zeros_like(x)
        beta = sched.betas[i]
        eps = net(x, t)
        x.sub_(beta / (1 - sched.alphas_cumprod[i]).sqrt() * eps)
        x.div_(sched.alphas[i].sqrt())
        x.add_(beta.sqrt() * z)
    return x


torch.manual_seed(5)
xs = sample(ema, 32)
print("sample", xs.mean(0).tolist(), xs.std().item())

# a sampling loop written inline (no decorator): per-step statistics kept as floats
torch.manual_seed(6)
x = torch.randn(8, 2, device=device)
norms = []
for i in reversed(range(T)):
    t = torch.full((8,), i, dtype=torch.long, device=device)
    eps = model(x, t)
    x = (x - sched.betas[i] / (1 - sched.alphas_cumprod[i]).sqrt() * eps) / sched.alphas[i].sqrt()
    if i > 0:
        x = x + sched.betas[i].sqrt() * torch.randn_like(x)
    norms.append(x.norm().item())
print("inline", [round(n, 5) for n in norms[-3:]], x.requires_grad)

# noise-level histogram of the timesteps drawn (scatter counts)
counts = torch.zeros(T, dtype=torch.long)
for _ in range(5):
    t = torch.randint(0, T, (16,))
    counts.index_add_(0, t, torch.ones_like(t))
print("counts", counts.tolist())

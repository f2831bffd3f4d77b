# corpus: runnable
"""Hinge-loss discriminator with spectral norm (parametrizations API); after training, a probe
loop in train mode scores held-out rows against a snapshot of the first layer's weight."""
import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import spectral_norm

torch.manual_seed(0)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

disc = nn.Sequential(spectral_norm(nn.Linear(6, 8)), nn.LeakyReLU(0.2), spectral_norm(nn.Linear(8, 1))).to(device)
opt = torch.optim.Adam(disc.parameters(), lr=2e-3, betas=(0.0, 0.9))
real = torch.randn(24, 6) + 1.0
fake = torch.randn(24, 6)

for step in range(3):
    xr = real[step * 8:(step + 1) * 8].to(device)
    xf = fake[step * 8:(step + 1) * 8].to(device)
    loss = torch.relu(1 - disc(xr)).mean() + torch.relu(1 + disc(xf)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} d_loss {loss.item():.10f}")

# probe: effective first-layer weight against held-out rows (the model stays in train mode)
first = disc[0]
probe_rows = torch.randn(4, 6).to(device)
scores = []
for i in range(4):
    w_eff = torch.tensor(first.weight.detach().cpu().tolist()).to(device)
    scores.append((probe_rows[i] @ w_eff.t()).norm().item())
print("probe", [f"{s:.12f}" for s in scores])
u = first.parametrizations.weight[0]._u
print("u after probe", [f"{v:.12f}" for v in u.detach().cpu().tolist()[:4]])

# second probe: a zero template shaped like the last layer's weight, per row
last = disc[2]
sums = []
for i in range(3):
    template = torch.zeros_like(last.weight)
    template += 0.5 * i
    sums.append(template.sum().item())
print("templates", sums)
out = disc(probe_rows)
print("disc out", [f"{v:.12f}" for v in out.detach().cpu().flatten().tolist()])

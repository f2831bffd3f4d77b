# corpus: runnable
"""A small GAN on 2-D points: two optimizers, targets built once before the loop."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
batch, z_dim = 32, 4

G = nn.Sequential(nn.Linear(z_dim, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)).to(device)
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
real_label = torch.ones(batch, 1, device=device)
fake_label = torch.zeros(batch, 1, device=device)
centers = torch.tensor([[1.0, 1.0], [-1.0, -1.0]], device=device)

d_hist, g_hist = [], []
for step in range(80):
    real = centers[torch.randint(0, 2, (batch,), device=device)] + 0.1 * torch.randn(batch, 2, device=device)
    z = torch.randn(batch, z_dim, device=device)
    fake = G(z)
    d_loss = bce(D(real), real_label) + bce(D(fake.detach()), fake_label)
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), real_label)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    d_hist.append(d_loss.detach())
    g_hist.append(g_loss.detach())

print(f"D {torch.stack(d_hist[-10:]).mean().item():.4f} G {torch.stack(g_hist[-10:]).mean().item():.4f}")

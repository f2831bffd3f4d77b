# corpus: runnable
"""A DCGAN-like GAN on 1-D signals with the label tensors and noise built by small helpers that
the training step calls, as several public GAN scripts factor them."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
NZ, DIM = 8, 16


def real_labels(n):
    return torch.full((n,), 1.0).to(device)  # paef: expect cpu-then-move


def fake_labels(n):
    return torch.full((n,), 0.0, device=device)


def sample_noise(n):
    return torch.randn(n, NZ, device=device)


def fixed_noise_grid(n):
    return torch.randn(n, NZ).to(device)  # paef: ok cpu-then-move


netG = nn.Sequential(nn.Linear(NZ, 32), nn.ReLU(), nn.Linear(32, DIM)).to(device)
netD = nn.Sequential(nn.Linear(DIM, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1)).to(device)
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterion = nn.BCEWithLogitsLoss()
real_data = (torch.sin(torch.linspace(0, 6.28, DIM)) + 0.1 * torch.randn(256, DIM)).to(device)  # paef: ok cpu-then-move
fixed_noise = fixed_noise_grid(16)
G_losses = []
for epoch in range(2):
    for i in range(0, len(real_data), 32):
        real = real_data[i : i + 32]
        b = real.size(0)
        netD.zero_grad()
        errD_real = criterion(netD(real).view(-1), real_labels(b))
        fake = netG(sample_noise(b))
        errD_fake = criterion(netD(fake.detach()).view(-1), fake_labels(b))
        (errD_real + errD_fake).backward()
        optD.step()
        netG.zero_grad()
        errG = criterion(netD(fake).view(-1), real_labels(b))
        errG.backward()
        optG.step()
        G_losses.append(errG.item())  # paef: expect host-sync
    with torch.no_grad():
        sample = netG(fixed_noise)
    print(f"epoch {epoch} G {G_losses[-1]:.4f} sample mean {sample.mean().item():.4f}")

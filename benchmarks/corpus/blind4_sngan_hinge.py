# corpus: runnable
"""SNGAN on a 2-D mixture of Gaussians: a spectrally normalised discriminator, a
weight-normalised generator, the hinge loss, two discriminator steps per generator step,
fixed noise drawn from a seeded CPU generator for the samples, losses kept per iteration
for plotting."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import spectral_norm, weight_norm


def sample_data(n, rng):
    centers = np.array([[np.cos(a), np.sin(a)] for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]) * 2
    idx = rng.randint(0, 8, n)
    return (centers[idx] + 0.05 * rng.randn(n, 2)).astype(np.float32)


class Generator(nn.Module):
    def __init__(self, nz):
        super().__init__()
        self.net = nn.Sequential(weight_norm(nn.Linear(nz, 64)), nn.ReLU(), weight_norm(nn.Linear(64, 64)), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(spectral_norm(nn.Linear(2, 64)), nn.LeakyReLU(0.1), spectral_norm(nn.Linear(64, 64)), nn.LeakyReLU(0.1), spectral_norm(nn.Linear(64, 1)))

    def forward(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nz", type=int, default=8)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--iters", type=int, default=150)
    parser.add_argument("--n_dis", type=int, default=2)
    opt = parser.parse_args()
    rng = np.random.RandomState(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    netG, netD = Generator(opt.nz).to(device), Discriminator().to(device)
    optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.0, 0.9))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.0, 0.9))
    g = torch.Generator().manual_seed(123)
    fixed_noise = torch.randn(256, opt.nz, generator=g).to(device)  # paef: refuse cpu-then-move
    G_losses, D_losses = [], []
    for it in range(opt.iters):
        for _ in range(opt.n_dis):
            real = torch.from_numpy(sample_data(opt.batch_size, rng)).to(device)
            z = torch.randn(opt.batch_size, opt.nz).to(device)  # paef: expect cpu-then-move
            fake = netG(z).detach()
            errD = F.relu(1.0 - netD(real)).mean() + F.relu(1.0 + netD(fake)).mean()
            optD.zero_grad()
            errD.backward()
            optD.step()
        z = torch.randn(opt.batch_size, opt.nz).to(device)  # paef: expect cpu-then-move
        errG = -netD(netG(z)).mean()
        optG.zero_grad()
        errG.backward()
        optG.step()
        G_losses.append(errG.item())  # paef: expect host-sync
        D_losses.append(errD.item())  # paef: expect host-sync
        if it % 50 == 0:
            print(f"[{it}/{opt.iters}] Loss_D: {D_losses[-1]:.4f} Loss_G: {G_losses[-1]:.4f}")
    with torch.no_grad():
        samples = netG(fixed_noise).cpu().numpy()
    radius = np.linalg.norm(samples, axis=1)
    print(f"sample radius mean {radius.mean():.3f} std {radius.std():.3f}")


if __name__ == "__main__":
    main()

# corpus: runnable
"""DCGAN-style loop that builds its label tensors on the CPU every step and logs every step."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
nz, bs = 8, 16
netG = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 4), nn.Tanh()).to(device)
netD = nn.Sequential(nn.Linear(4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid()).to(device)
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
dataset = torch.tanh(torch.randn(160, 4) * 0.5)
G_losses, D_losses = [], []

for epoch in range(2):
    for i in range(0, 160, bs):
        real = dataset[i : i + bs].to(device)  # paef: ok pageable-transfer; ok redundant-tensor
        label = torch.full((bs,), 1.0).to(device)  # paef: expect cpu-then-move; refuse redundant-tensor
        optimizerD.zero_grad()
        errD_real = criterion(netD(real).view(-1), label)
        errD_real.backward()
        noise = torch.randn(bs, nz, device=device)
        fake = netG(noise)
        label.fill_(0.0)
        errD_fake = criterion(netD(fake.detach()).view(-1), label)
        errD_fake.backward()
        optimizerD.step()
        label.fill_(1.0)
        errG = criterion(netD(fake).view(-1), label)
        optimizerG.zero_grad()
        errG.backward()
        optimizerG.step()
        G_losses.append(errG.item())  # paef: expect host-sync
        D_losses.append((errD_real + errD_fake).item())  # paef: expect host-sync
print(f"G {sum(G_losses[-5:]) / 5:.4f} D {sum(D_losses[-5:]) / 5:.4f}")

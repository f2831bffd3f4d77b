# corpus: runnable
"""DCGAN-style training on 2-D points: real/fake label tensors built on the CPU every step, D(x) read every step."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
nz, batch_size = 4, 32

angles = torch.rand(512) * 6.2832
points = torch.stack([angles.cos(), angles.sin()], 1) + 0.05 * torch.randn(512, 2)
dataloader = DataLoader(TensorDataset(points), batch_size=batch_size, shuffle=True, drop_last=True)  # paef: ok pageable-transfer

netG = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
netD = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid()).to(device)
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
fixed_noise = torch.randn(64, nz, device=device)
real_label, fake_label = 1.0, 0.0
G_losses, D_losses = [], []

for epoch in range(3):
    for i, (real,) in enumerate(dataloader):
        real = real.to(device)
        b_size = real.size(0)
        netD.zero_grad()
        label = torch.full((b_size,), real_label).to(device)  # paef: expect cpu-then-move; refuse redundant-tensor
        output = netD(real).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()  # paef: expect host-sync
        noise = torch.randn(b_size, nz, device=device)
        fake = netG(noise)
        label.fill_(fake_label)
        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        errD = errD_real + errD_fake
        optimizerD.step()

        netG.zero_grad()
        label.fill_(real_label)
        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        optimizerG.step()
        G_losses.append(errG.item())  # paef: ok host-sync
        D_losses.append(errD.item())  # paef: ok host-sync
        if i % 5 == 0:
            print(f"[{epoch}][{i}] Loss_D {errD.item():.4f} Loss_G {errG.item():.4f} D(x) {D_x:.4f}")  # paef: ok host-sync
    with torch.no_grad():
        fake = netG(fixed_noise).cpu()
    print(f"epoch {epoch} radius {fake.norm(dim=1).mean():.4f}")

# Public check 36, p01: DCGAN training loop.
# Source: https://github.com/GeonwooVincentKim/New_DCGAN/blob/1668a874df3bc0aab354313151eb7fc9717e2acb/Main/DCGAN_Training.py
# Changes to make it run on the CPU in seconds (the loop body below is the source's, line for line):
# - `from Main.DCGAN import *` (not fetched) replaced by a small stand-in block defining what it
#   exports: DEVICE, nz, tiny netG / netD, criterion, optimizers, real_label / fake_label,
#   num_epochs=2 and a train_loader of 48 seeded random 1x16x16 "images" (no dataset download).
# - the docstring comments inside the loop kept; a checksum print appended at the end.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

# ---- stand-in for Main.DCGAN (not part of the source file) ----
torch.manual_seed(0)
DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
nz = 8
num_epochs = 2
real_label = 1.0
fake_label = 0.0
netG = nn.Sequential(nn.ConvTranspose2d(nz, 8, 4, 1, 0), nn.ReLU(), nn.ConvTranspose2d(8, 1, 4, 4, 0), nn.Tanh()).to(DEVICE)
netD = nn.Sequential(nn.Conv2d(1, 8, 4, 4, 0), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4, 1, 0), nn.Sigmoid()).to(DEVICE)
criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
train_loader = DataLoader(TensorDataset(torch.randn(48, 1, 16, 16).tanh(), torch.zeros(48)), batch_size=8, shuffle=True)
# ---- end of stand-in ----

# Training
img_list = []
G_losses = []
D_losses = []
iters = 0

print("Starting Training Loop...")

# Using for-each epoch
for epoch in range(num_epochs):
    # for each batch
    for i, data in enumerate(train_loader, 0):
        # Update 0
        # Train with All-Real-Batch.
        """
            Zero-gradient of netD.
        """
        netD.zero_grad()
        real_cpu = data[0].to(DEVICE)
        b_size = real_cpu.size(0)
        label = torch.full(
            (b_size,), real_label,
            device=DEVICE
        )

        output = netD(real_cpu).view(-1)
        errD_real = criterion(output, label)
        errD_real.backward()
        D_x = output.mean().item()

        # Train with All-Fake-Batch
        noise = torch.randn(
            b_size, nz, 1, 1,
            device=DEVICE
        )
        fake = netG(noise)
        label.fill_(fake_label)

        output = netD(fake.detach()).view(-1)
        errD_fake = criterion(output, label)
        errD_fake.backward()
        D_G_z1 = output.mean().item()
        errD = errD_real + errD_fake

        optimizerD.step()

        """
            Zero-gradient of netG.
        """
        # Update G
        netG.zero_grad()
        label.fill_(real_label)

        output = netD(fake).view(-1)
        errG = criterion(output, label)
        errG.backward()
        D_G_z2 = output.mean().item()

        optimizerG.step()

        if i % 50 == 0:
            print("[%d %d] [%d %d]\t "
                  "Loss_D : %.4f\t Loss_G : %.4f\t"
                  "D(x) : %.4f\t D(G(z)) : %.4f / %.4f" % (
                      epoch, num_epochs, i, len(train_loader),
                      errD.item(), errG.item(), D_x, D_G_z1, D_G_z2
                  ))

            G_losses.append(errG.item())
            D_losses.append(errD.item())

print("checksum", round(sum(G_losses) + sum(D_losses), 6), round(D_x + D_G_z1 + D_G_z2, 6))

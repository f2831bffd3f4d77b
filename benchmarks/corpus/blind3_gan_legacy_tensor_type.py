# corpus: runnable
"""A GAN in the style of the popular PyTorch-GAN collection: Tensor type switched on
`cuda`, adversarial ground truths built per batch, `.cuda()` moves, per-batch progress
printing, on 2-D ring data."""
import math

import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
cuda = True if torch.cuda.is_available() else False
latent_dim, n_epochs, batch_size = 4, 3, 64


def ring(n):
    theta = torch.rand(n) * 2 * math.pi
    return torch.stack([torch.cos(theta), torch.sin(theta)], 1) + 0.05 * torch.randn(n, 2)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(latent_dim, 64), nn.LeakyReLU(0.2, inplace=True), nn.Linear(64, 2))

    def forward(self, z):
        return self.model(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2, inplace=True), nn.Linear(64, 1), nn.Sigmoid())

    def forward(self, x):
        return self.model(x)


adversarial_loss = torch.nn.BCELoss()
generator, discriminator = Generator(), Discriminator()
if cuda:
    generator.cuda()
    discriminator.cuda()
    adversarial_loss.cuda()
dataloader = torch.utils.data.DataLoader(ring(1024), batch_size=batch_size, shuffle=True)  # paef: ok pageable-transfer
optimizer_G = torch.optim.Adam(generator.parameters(), lr=2e-3, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-3, betas=(0.5, 0.999))
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor

for epoch in range(n_epochs):
    for i, imgs in enumerate(dataloader):
        valid = Tensor(imgs.size(0), 1).fill_(1.0)  # paef: ok redundant-tensor
        fake = Tensor(imgs.size(0), 1).fill_(0.0)  # paef: ok redundant-tensor
        real_imgs = imgs.type(Tensor)
        optimizer_G.zero_grad()
        z = Tensor(np.random.normal(0, 1, (imgs.shape[0], latent_dim)))  # paef: expect cpu-then-move
        gen_imgs = generator(z)
        g_loss = adversarial_loss(discriminator(gen_imgs), valid)
        g_loss.backward()
        optimizer_G.step()
        optimizer_D.zero_grad()
        real_loss = adversarial_loss(discriminator(real_imgs), valid)
        fake_loss = adversarial_loss(discriminator(gen_imgs.detach()), fake)
        d_loss = (real_loss + fake_loss) / 2
        d_loss.backward()
        optimizer_D.step()
        if i % 8 == 0:
            print("[Epoch %d/%d] [Batch %d/%d] [D loss: %f] [G loss: %f]"
                  % (epoch, n_epochs, i, len(dataloader), d_loss.item(), g_loss.item()))  # paef: ok host-sync

with torch.no_grad():
    samples = generator(Tensor(np.random.normal(0, 1, (500, latent_dim))))
radius = samples.norm(dim=1)
print(f"sample radius mean {radius.mean().item():.3f} std {radius.std().item():.3f}")

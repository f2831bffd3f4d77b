"""DCGAN-style training on a GPU, every tensor moved with `.cuda()` (not runnable without CUDA)."""
import torch
import torch.nn as nn

LATENT, BATCH = 16, 64
netG = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, 28 * 28), nn.Tanh()).cuda()
netD = nn.Sequential(nn.Linear(28 * 28, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1)).cuda()
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterion = nn.BCEWithLogitsLoss()
images = torch.randn(1024, 28 * 28).cuda()
fixed_noise = torch.randn(8, LATENT).cuda()


def label_like(batch, value):
    return torch.full((batch.size(0), 1), value).cuda()  # paef: expect-fix cpu-then-move


for epoch in range(5):
    for i in range(0, len(images), BATCH):
        real = images[i : i + BATCH]
        b = real.size(0)
        noise = torch.randn(b, LATENT).cuda()  # paef: expect cpu-then-move; refuse cpu-then-move
        fake = netG(noise)
        real_label = label_like(real, 1.0)
        fake_label = torch.zeros(b, 1).cuda()  # paef: expect-fix cpu-then-move
        lossD = criterion(netD(real), real_label) + criterion(netD(fake.detach()), fake_label)
        optD.zero_grad()
        lossD.backward()
        optD.step()
        smooth = torch.tensor([0.9]).cuda().expand(b, 1)  # paef: expect-fix redundant-tensor
        lossG = criterion(netD(fake), smooth)
        optG.zero_grad()
        lossG.backward()
        optG.step()
    with torch.no_grad():
        sample = netG(fixed_noise)
    print(epoch, lossD.item(), lossG.item(), sample.mean().item())

# corpus: runnable
"""CycleGAN on two synthetic 1-D "domains" (sines and squares): two generators, two
discriminators with the least-squares GAN loss, cycle and identity losses, and the ImagePool of
the original implementation (a history of generated samples; each query returns either the new
sample or a random old one, swapping them). Targets for the LSGAN loss are built per call."""
import random

import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
L, LAMBDA_CYC, LAMBDA_ID = 32, 10.0, 5.0


class ImagePool:
    def __init__(self, pool_size):
        self.pool_size = pool_size
        self.num_imgs = 0
        self.images = []

    def query(self, images):
        if self.pool_size == 0:
            return images
        return_images = []
        for image in images:  # paef: ok elementwise-loop
            image = torch.unsqueeze(image.data, 0)
            if self.num_imgs < self.pool_size:
                self.num_imgs = self.num_imgs + 1
                self.images.append(image)
                return_images.append(image)
            else:
                p = random.uniform(0, 1)
                if p > 0.5:
                    random_id = random.randint(0, self.pool_size - 1)
                    tmp = self.images[random_id].clone()  # paef: ok record-buffer
                    self.images[random_id] = image
                    return_images.append(tmp)
                else:
                    return_images.append(image)
        return torch.cat(return_images, 0)  # paef: refuse list-to-tensor


class GANLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("real_label", torch.tensor(1.0))
        self.register_buffer("fake_label", torch.tensor(0.0))
        self.loss = nn.MSELoss()

    def __call__(self, prediction, target_is_real):
        target = (self.real_label if target_is_real else self.fake_label).expand_as(prediction)
        return self.loss(prediction, target)


def generator():
    return nn.Sequential(nn.Conv1d(1, 16, 5, padding=2), nn.ReLU(), nn.Conv1d(16, 16, 5, padding=2), nn.ReLU(), nn.Conv1d(16, 1, 5, padding=2), nn.Tanh())


def discriminator():
    return nn.Sequential(nn.Conv1d(1, 16, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv1d(16, 1, 4, 2, 1))


def sample_domains(n):
    t = torch.linspace(0, 1, L)  # paef: ok redundant-tensor
    f = torch.randint(1, 4, (n, 1)).float()
    phase = torch.rand(n, 1)
    a = torch.sin(2 * torch.pi * (f * t + phase))
    return a.unsqueeze(1), torch.sign(a).unsqueeze(1) * 0.9


G_AB, G_BA, D_A, D_B = generator().to(device), generator().to(device), discriminator().to(device), discriminator().to(device)
criterionGAN = GANLoss().to(device)
criterionCycle, criterionIdt = nn.L1Loss(), nn.L1Loss()
opt_G = torch.optim.Adam(list(G_AB.parameters()) + list(G_BA.parameters()), lr=2e-3, betas=(0.5, 0.999))
opt_D = torch.optim.Adam(list(D_A.parameters()) + list(D_B.parameters()), lr=2e-3, betas=(0.5, 0.999))
fake_A_pool, fake_B_pool = ImagePool(20), ImagePool(20)
for step in range(80):
    real_A, real_B = sample_domains(16)
    real_A, real_B = real_A.to(device), real_B.to(device)
    fake_B, fake_A = G_AB(real_A), G_BA(real_B)
    rec_A, rec_B = G_BA(fake_B), G_AB(fake_A)
    for p in list(D_A.parameters()) + list(D_B.parameters()):
        p.requires_grad = False
    loss_G = criterionGAN(D_B(fake_B), True) + criterionGAN(D_A(fake_A), True)
    loss_cyc = criterionCycle(rec_A, real_A) + criterionCycle(rec_B, real_B)
    loss_idt = criterionIdt(G_AB(real_B), real_B) + criterionIdt(G_BA(real_A), real_A)
    opt_G.zero_grad()
    (loss_G + LAMBDA_CYC * loss_cyc + LAMBDA_ID * loss_idt).backward()
    opt_G.step()
    for p in list(D_A.parameters()) + list(D_B.parameters()):
        p.requires_grad = True
    opt_D.zero_grad()
    fb, fa = fake_B_pool.query(fake_B), fake_A_pool.query(fake_A)
    loss_D_B = 0.5 * (criterionGAN(D_B(real_B), True) + criterionGAN(D_B(fb.detach()), False))
    loss_D_A = 0.5 * (criterionGAN(D_A(real_A), True) + criterionGAN(D_A(fa.detach()), False))
    (loss_D_A + loss_D_B).backward()
    opt_D.step()
    if step % 20 == 0:
        print(f"step {step} G {loss_G.item():.3f} cyc {loss_cyc.item():.3f} D {(loss_D_A + loss_D_B).item():.3f}")

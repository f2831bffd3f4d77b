# corpus: runnable
"""Public check 43, p01: WGAN-GP (DCGAN-style critic and generator, gradient penalty) on a folder of face images.

Source: https://github.com/0nEwEi/Test  WGANGP/model.py @ ebd07772, WGANGP/utils.py @ 8a79b0d6,
WGANGP/train.py @ 8a79b0d6 (the three files in this order; the two local imports `from model import Discriminator,
Generator, weights_init` / `from utils import gradient_penalty` dropped since the files are one here; model.py's own
`if __name__ == "__main__":` self-test dropped, it is not part of training).

Changes to make it run on the CPU in seconds:
- `torchvision` (not installed) -> a stand-in registered below: `datasets.ImageFolder` gives 16 seeded random
  3x64x64 images (label 0), `transforms` keeps Normalize and passes the rest through, `utils.make_grid` stacks.
- `torch.utils.tensorboard.SummaryWriter` (tensorboard not installed) -> a stand-in that counts `add_image` calls.
- seeds (`torch`) set below: the source seeds nothing and prints losses.
- `BATCH_SIZE = 64` -> 8, `NUM_EPOCHS = 5` -> 1, `FEATURES_D = 64` / `FEATURES_G = 64` -> 4.
- a `checksum` print at the end.
The source's lines are otherwise unchanged.
"""
# ---- stand-ins: torchvision, tensorboard SummaryWriter; seeds ----
import sys as _sys
import types as _types
import torch as _torch

class _ImageFolder:
    def __init__(self, root, transform=None):
        g = _torch.Generator().manual_seed(0)
        self._imgs = _torch.rand(16, 3, 64, 64, generator=g)
        self.transform = transform
    def __len__(self):
        return len(self._imgs)
    def __getitem__(self, i):
        img = self._imgs[i]
        return (self.transform(img) if self.transform else img), 0

class _Compose:
    def __init__(self, ts):
        self.ts = ts
    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x

class _Normalize:
    def __init__(self, mean, std):
        self.mean = _torch.tensor(mean).view(-1, 1, 1)
        self.std = _torch.tensor(std).view(-1, 1, 1)
    def __call__(self, x):
        return (x - self.mean) / self.std

_passthrough = lambda *a, **k: (lambda x: x)
_tv = _types.ModuleType("torchvision")
_tv.datasets = _types.SimpleNamespace(ImageFolder=_ImageFolder, MNIST=None)
_tv.transforms = _types.SimpleNamespace(Compose=_Compose, Normalize=_Normalize, Resize=_passthrough,
                                        CenterCrop=_passthrough, ToTensor=_passthrough)
_tv.utils = _types.SimpleNamespace(make_grid=lambda t, normalize=False: _torch.cat(list(t), dim=2))
_sys.modules["torchvision"] = _tv
_sys.modules["torchvision.datasets"] = _tv.datasets
_sys.modules["torchvision.transforms"] = _tv.transforms

class _SummaryWriter:
    images = 0
    def __init__(self, log_dir=None):
        self.log_dir = log_dir
    def add_image(self, tag, img, global_step=None):
        _SummaryWriter.images += 1
    def close(self):
        pass

_tb = _types.ModuleType("torch.utils.tensorboard")
_tb.SummaryWriter = _SummaryWriter
_sys.modules["torch.utils.tensorboard"] = _tb
_torch.manual_seed(0)
# ---- end of stand-ins ----

# ===== model.py =====
'''
Discriminator and Generator implementation for WGAN(with gradient penalty)
'''

import torch
import torch.nn as nn

class Discriminator(nn.Module):
    def __init__(self, img_channels, features_d):
        super(Discriminator, self).__init__()
        self.disc = nn.Sequential(
            # Input: N x img_channels x 64 x 64
            nn.Conv2d(img_channels, features_d, kernel_size=4, stride=2, padding=1), # 32 x 32
            nn.LeakyReLU(0.2),
            self._block(features_d, features_d*2, 4, 2, 1), # 16 x 16
            self._block(features_d*2, features_d*4, 4, 2, 1), # 8 x 8
            self._block(features_d*4, features_d*8, 4, 2, 1), # 4 x 4
            nn.Conv2d(features_d*8, 1, kernel_size=4, stride=2, padding=0), # 1 x 1
        )

    def _block(self, in_channels, out_channels, kernel_size, stride, padding):
        return nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=False),
            nn.InstanceNorm2d(out_channels, affine=True), # LayerNorm <-> InstanceNorm
            nn.LeakyReLU(0.2),
        )
    
    def forward(self, x):
        return self.disc(x)

class Generator(nn.Module):
    def __init__(self, z_dim, img_channels, features_g):
        super(Generator, self).__init__()
        self.gen = nn.Sequential(
            # Input: N x z_dim x 1 x 1
            self._block(z_dim, features_g*16, 4, 1, 0), # 4 x 4
            self._block(features_g*16, features_g*8, 4, 2, 1), # 8 x 8
            self._block(features_g*8, features_g*4, 4, 2, 1), # 16 x 16
            self._block(features_g*4, features_g*2, 4, 2, 1), # 32 x 32
            nn.ConvTranspose2d(features_g*2, img_channels, kernel_size=4, stride=2, padding=1), # 64 x 64
            nn.Tanh() # normalized to [-1, 1] (actually [0, 1])
        )
    
    def _block(self, in_channels, out_channels, kernel_size, stride, padding):
        return nn.Sequential(
            nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride, padding, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
        )
    
    def forward(self, x):
        return self.gen(x)
    
def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        torch.nn.init.normal_(m.weight, 0.0, 0.02)
    elif classname.find('BatchNorm') != -1:
        torch.nn.init.normal_(m.weight, 1.0, 0.02)
        torch.nn.init.zeros_(m.bias)

# ===== utils.py =====
'''
Gradient penalty for WGAN
'''

import torch
import torch.nn as nn

def gradient_penalty(critic, real, fake, device="cpu"):
    BATCH_SIZE, C, H, W = real.shape

    epsilon = torch.rand((BATCH_SIZE, 1, 1, 1)).repeat(1, C, H, W).to(device)  # paef: expect cpu-then-move; refuse cpu-then-move
    interpolated_images = real * epsilon + fake * (1 - epsilon)
    # RuntimeError: One of the differentiated Tensors does not require grad
    interpolated_images.requires_grad_(True) # if False, RuntimeError above occurs (line 19)
    
    # calculate critic scores
    mixed_scores = critic(interpolated_images)

    gradient = torch.autograd.grad(
        inputs=interpolated_images,
        outputs=mixed_scores,
        grad_outputs=torch.ones_like(mixed_scores),
        create_graph=True,
        # retain_graph=True, # perhaps use this to reuse fake in Generator training
    )[0]

    gradient = gradient.view(gradient.shape[0], -1)
    gradient_norm = gradient.norm(2, dim=1)
    gradient_penalty = torch.mean((gradient_norm - 1) ** 2)
    
    return gradient_penalty

# ===== train.py =====
'''
Training of WGAN(with gradient penalty) network with models imported from model.py
'''

import torch
import torch.nn as nn
import torch.optim as optim
import torchvision
import torchvision.datasets as datasets
import torchvision.transforms as transforms
from torch.utils.data import DataLoader
from torch.utils.tensorboard import SummaryWriter

# Hyperparameters etc.
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
LEARNING_RATE = 1e-4
BATCH_SIZE = 8
IMAGE_SIZE = 64
IMG_CHANNELS = 3
Z_DIM = 100
NUM_EPOCHS = 1
FEATURES_D = 4
FEATURES_G = 4
CRITIC_ITERATIONS = 5
LAMBDA_GP = 10

transforms = transforms.Compose([
    transforms.Resize(IMAGE_SIZE),
    transforms.CenterCrop(IMAGE_SIZE),
    transforms.ToTensor(),
    transforms.Normalize([0.5 for _ in range(IMG_CHANNELS)], [0.5 for _ in range(IMG_CHANNELS)]),
])

# dataset = datasets.MNIST(root="D:/PyProjects/Datasets/mnist", train=True, transform=transforms, download=False) # IMG_CHANNELS=1
dataset = datasets.ImageFolder(root="D:/PyProjects/Datasets/celeb_dataset", transform=transforms) # IMG_CHANNELS=3
dataloader = DataLoader(dataset=dataset, batch_size=BATCH_SIZE, shuffle=True, drop_last=True) # the last batch will cause error in gradient_penalty  # paef: ok pageable-transfer; ok sync-dataloader

gen = Generator(Z_DIM, IMG_CHANNELS, FEATURES_G).to(device)
critic = Discriminator(IMG_CHANNELS, FEATURES_D).to(device)
weights_init(gen)
weights_init(critic)

opt_gen = optim.Adam(gen.parameters(), lr=LEARNING_RATE, betas=(0.0, 0.9))
opt_critic = optim.Adam(critic.parameters(), lr=LEARNING_RATE, betas=(0.0, 0.9))

fixed_noise = torch.randn(32, Z_DIM, 1, 1).to(device)  # paef: ok cpu-then-move; refuse cpu-then-move

writer_real = SummaryWriter(f"logs/real")
writer_fake = SummaryWriter(f"logs/fake")

step = 0

gen.train()
critic.train()

for epoch in range(NUM_EPOCHS):
    for batch_idx, (real, _) in enumerate(dataloader):
        real = real.to(device)  # paef: ok pageable-transfer

        # Train Discriminator
        for _ in range(CRITIC_ITERATIONS):
            noise = torch.randn((BATCH_SIZE, Z_DIM, 1, 1)).to(device)  # paef: expect cpu-then-move; refuse cpu-then-move
            fake = gen(noise).detach() # fake here doesn't need gradient  # paef: ok eval-without-no-grad
            
            critic_real = critic(real).reshape(-1)
            critic_fake = critic(fake).reshape(-1)

            # use gradient penalty to get smooth Discriminator
            gp = gradient_penalty(critic, real, fake, device=device)
            # original WGAN loss + gradient penalty
            loss_critic = (-(torch.mean(critic_real) - torch.mean(critic_fake)) + LAMBDA_GP*gp)
            
            critic.zero_grad()
            loss_critic.backward()
            # loss_critic.backward(retain_graph=True) # use this to reuse fake in Generator training
            opt_critic.step()

        # Train Generator--min -E[critic(gen(z))]
        noise = torch.randn((BATCH_SIZE, Z_DIM, 1, 1)).to(device)  # paef: expect cpu-then-move; refuse cpu-then-move
        fake = gen(noise)
        output = critic(fake).reshape(-1)

        loss_gen = -torch.mean(output)

        gen.zero_grad()
        loss_gen.backward()
        opt_gen.step()

        # print to tensorboard
        if batch_idx % 100 == 0:
            print(f"Epoch [{epoch}/{NUM_EPOCHS}] Batch {batch_idx}/{len(dataloader)} \
                        Loss D: {loss_critic:.4f}, loss G: {loss_gen:.4f}") # loss here is meaningful

            with torch.no_grad():
                fake = gen(fixed_noise)

                # take out (up to) 32 examples
                img_grid_real = torchvision.utils.make_grid(real[:32], normalize=True)
                img_grid_fake = torchvision.utils.make_grid(fake[:32], normalize=True)

                writer_real.add_image("Real_celeb_wgangp", img_grid_real, global_step=step)
                writer_fake.add_image("Fake_celeb_wgangp", img_grid_fake, global_step=step)
            
            step += 1

writer_fake.close()
writer_real.close()

print("checksum", round(sum(float(p.detach().double().sum()) for p in gen.parameters()), 6),
      round(float(loss_critic), 6), round(float(loss_gen), 6), _SummaryWriter.images)

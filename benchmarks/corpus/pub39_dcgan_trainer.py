# corpus: runnable
# Public check 39 p06 (nampluskr/gan-tutorials trainer.py + models/{blocks,gan}.py, made runnable with
# stand-ins): noise drawn on the host and moved every step, four `.item()` per step read by the trainer's
# per-step progress-bar means.
# Public check 39, p06: DCGAN with a generic trainer (src/gan_tutorials/{trainer,models/blocks,models/gan}.py).
# Source: https://github.com/nampluskr/gan-tutorials src/gan_tutorials/trainer.py @ 2d9b8624,
#         src/gan_tutorials/models/{blocks,gan}.py @ 55def0b7
# Changes to make it run on the CPU in seconds:
# - the three files are joined in one module (`from .blocks import ...` dropped); the source's lines
#   are unchanged.
# - `tqdm` (not installed) replaced by a stand-in with the same context-manager / set_postfix use.
# - a driver replaces experiments/mnist_gan.py (MNIST files not fetched; that script also passes
#   the two nets in the wrong order): 64 seeded random 1x32x32 "images" in dict batches of 16,
#   a small generator/discriminator (latent 16, base 8), 2 epochs, a checksum print.
import os
import sys


class tqdm:  # ---- stand-in for tqdm.tqdm ----
    def __init__(self, iterable, **kwargs):
        self.iterable = iterable

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        return iter(self.iterable)

    def set_postfix(self, values):
        self.postfix = values


## filename: trainer.py

def train(model, dataloader):
    model.global_epoch += 1
    model.train()
    results = {}
    total = 0

    with tqdm(dataloader, desc="Train", file=sys.stdout, leave=False, ascii=True) as progress_bar:
        for batch in progress_bar:
            batch_size = batch["image"].shape[0]
            total += batch_size

            outputs = model.train_step(batch)
            for name, value in outputs.items():
                results.setdefault(name, 0.0)
                results[name] += float(value) * batch_size

            progress_bar.set_postfix({name: f"{value / total:.3f}"
                for name, value in results.items()})

    return {name: value / total for name, value in results.items()}


def evaluate(model, dataloader):
    model.eval()
    results = {}
    total = 0

    with tqdm(dataloader, desc="Evaluate", file=sys.stdout, leave=False, ascii=True) as progress_bar:
        for batch in progress_bar:
            batch_size = batch["image"].shape[0]
            total += batch_size

            outputs = model.eval_step(batch)
            for name, value in outputs.items():
                results.setdefault(name, 0.0)
                results[name] += float(value) * batch_size

            progress_bar.set_postfix({name: f"{value / total:.3f}"
                for name, value in results.items()})

    return {name: value / total for name, value in results.items()}


def fit(model, train_loader, num_epochs, total_epochs=None, valid_loader=None):
    history = {"train": {}, "valid": {}}
    for epoch in range(1, num_epochs + 1):
        if hasattr(model, 'global_epoch') and total_epochs is not None:
            epoch_info = f"[{model.global_epoch:3d}/{total_epochs}]"
        else:
            epoch_info = f"[{epoch:3d}/{num_epochs}]"

        train_results = train(model, train_loader)
        train_info = ", ".join([f"{k}:{v:.3f}" for k, v in train_results.items()])

        for name, value in train_results.items():
            history["train"].setdefault(name, [])
            history["train"][name].append(value)

        if valid_loader is not None:
            valid_results = evaluate(model, valid_loader)
            valid_info = ", ".join([f"{k}:{v:.3f}" for k, v in valid_results.items()])

            for name, value in valid_results.items():
                history["valid"].setdefault(name, [])
                history["valid"][name].append(value)
            print(f"{epoch_info} {train_info} | (val) {valid_info}")
        else:
            print(f"{epoch_info} {train_info}")

    return history


import torch
import torch.nn as nn


class DeconvBlock(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.block = nn.Sequential(
            nn.ConvTranspose2d(in_channels, out_channels, kernel_size=4, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(True),
        )

    def forward(self, x):
        return self.block(x)


class ConvBlock(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.block = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=4, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.LeakyReLU(0.2, inplace=True),
        )

    def forward(self, x):
        return self.block(x)


import os
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


#####################################################################
# Generator
#####################################################################

class Generator(nn.Module):
    def __init__(self, img_size=32, latent_dim=100, out_channels=3, base=64):
        super().__init__()
        self.latent_dim = latent_dim
        self.img_size = img_size

        num_blocks = {32: 2, 64: 3, 128: 4, 256: 5}
        if img_size not in num_blocks:
            raise ValueError(f"Unsupported img_size: {img_size}")

        in_channels = base * (2 ** num_blocks[img_size])
        self.initial = nn.Sequential(
            nn.ConvTranspose2d(latent_dim, in_channels,
                kernel_size=4, stride=1, padding=0, bias=False),
            nn.BatchNorm2d(in_channels),
            nn.ReLU(True),
        )
        blocks = []
        for i in range(num_blocks[img_size]):
            blocks.append(DeconvBlock(in_channels, in_channels // 2))
            in_channels //= 2
        self.blocks = nn.Sequential(*blocks)

        self.final = nn.ConvTranspose2d(base, out_channels, kernel_size=4, stride=2, padding=1, bias=False)
        self.apply(self.init_weights)

    def init_weights(self, m):
        if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
            nn.init.normal_(m.weight, 0.0, 0.02)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)

    def forward(self, z):
        z = z.view(-1, self.latent_dim, 1, 1)
        x = self.initial(z)
        x = self.blocks(x)
        x = self.final(x)
        return torch.tanh(x)


#####################################################################
# Loss functions for GAN
#####################################################################

class Discriminator(nn.Module):
    def __init__(self, img_size=32, in_channels=3, base=64):
        super().__init__()
        self.img_size = img_size

        num_blocks = {32:  2, 64:  3, 128: 4, 256: 5}
        if img_size not in num_blocks:
            raise ValueError(f"Unsupported img_size: {img_size}")

        out_channels = base
        self.initial = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=4, stride=2, padding=1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
        )
        blocks = []
        for i in range(num_blocks[img_size]):
            blocks.append(ConvBlock(out_channels, out_channels * 2))
            out_channels *= 2
        self.blocks = nn.Sequential(*blocks)

        self.final = nn.Conv2d(out_channels, 1, kernel_size=4, stride=1, padding=0, bias=False)
        self.apply(self.init_weights)

    def init_weights(self, m):
        if isinstance(m, (nn.Conv2d, nn.ConvTranspose2d)):
            nn.init.normal_(m.weight, 0.0, 0.02)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.BatchNorm2d):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)

    def forward(self, images):
        x = self.initial(images)
        x = self.blocks(x)
        logits = self.final(x).view(-1, 1)
        return logits


#####################################################################
# Loss functions for GAN
#####################################################################

# 1. BCE Loss (Vanilla GAN)
def bce_d_loss_fn(real_logits, fake_logits):
    real_labels = torch.ones_like(real_logits)
    fake_labels = torch.zeros_like(fake_logits)
    d_real_loss = F.binary_cross_entropy_with_logits(real_logits, real_labels)
    d_fake_loss = F.binary_cross_entropy_with_logits(fake_logits, fake_labels)
    d_loss = d_real_loss + d_fake_loss
    return d_loss, d_real_loss, d_fake_loss

def bce_g_loss_fn(fake_logits):
    real_labels = torch.ones_like(fake_logits)
    g_loss = F.binary_cross_entropy_with_logits(fake_logits, real_labels)
    return g_loss

# 2. MSE Loss (LSGAN)
def mse_d_loss_fn(real_logits, fake_logits):
    real_labels = torch.ones_like(real_logits)
    fake_labels = torch.zeros_like(fake_logits)
    d_real_loss = F.mse_loss(real_logits, real_labels)
    d_fake_loss = F.mse_loss(fake_logits, fake_labels)
    d_loss = d_real_loss + d_fake_loss
    return d_loss, d_real_loss, d_fake_loss

def mse_g_loss_fn(fake_logits):
    real_labels = torch.ones_like(fake_logits)
    g_loss = F.mse_loss(fake_logits, real_labels)
    return g_loss

# 3. Hinge Loss (StyleGAN)
def hinge_d_loss_fn(real_logits, fake_logits):
    d_real_loss = torch.relu(1.0 - real_logits).mean()
    d_fake_loss = torch.relu(1.0 + fake_logits).mean()
    d_loss = d_real_loss + d_fake_loss
    return d_loss, d_real_loss, d_fake_loss

def hinge_g_loss_fn(fake_logits):
    g_loss = -fake_logits.mean()
    return g_loss


class GAN(nn.Module):
    def __init__(self, generator, discriminator, loss_type="bce", latent_dim=None, device=None):
        super().__init__()
        self.device = device or torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.discriminator = discriminator.to(self.device)
        self.generator = generator.to(self.device)

        if loss_type == "bce":
            self.d_loss_fn, self.g_loss_fn = bce_d_loss_fn, bce_g_loss_fn
        elif loss_type == "mse":
            self.d_loss_fn, self.g_loss_fn = mse_d_loss_fn, mse_g_loss_fn
        elif loss_type == "hinge":
            self.d_loss_fn, self.g_loss_fn = hinge_d_loss_fn, hinge_g_loss_fn
        else:
             raise ValueError(f"Unknown loss type: {loss_type}")

        self.d_optimizer = optim.Adam(self.discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.g_optimizer = optim.Adam(self.generator.parameters(), lr=2e-4, betas=(0.5, 0.999))

        self.latent_dim = latent_dim or generator.latent_dim
        self.global_epoch = 0

    def set_optimizers(self, d_optimizer, g_optimizer):
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer

    def train_step(self, batch):
        batch_size = batch["image"].size(0)

        # (1) Update Discriminator
        real_images = batch["image"].to(self.device)  # paef: ok pageable-transfer
        real_logits = self.discriminator(real_images)

        noises = torch.randn(batch_size, self.latent_dim, 1, 1).to(self.device)  # paef: expect cpu-then-move; refuse cpu-then-move
        fake_images = self.generator(noises).detach()
        fake_logits = self.discriminator(fake_images)

        d_loss, d_real_loss, d_fake_loss = self.d_loss_fn(real_logits, fake_logits)

        self.d_optimizer.zero_grad()
        d_loss.backward()
        self.d_optimizer.step()

        # (2) Update Generator
        noises = torch.randn(batch_size, self.latent_dim, 1, 1).to(self.device)  # paef: expect cpu-then-move; refuse cpu-then-move
        fake_images = self.generator(noises)
        fake_logits = self.discriminator(fake_images)
        g_loss = self.g_loss_fn(fake_logits)

        self.g_optimizer.zero_grad()
        g_loss.backward()
        self.g_optimizer.step()

        return dict(
            d_loss=d_loss.item(),  # paef: expect host-sync; refuse host-sync
            real_loss=d_real_loss.item(),  # paef: ok host-sync; refuse host-sync
            fake_loss=d_fake_loss.item(),  # paef: ok host-sync; refuse host-sync
            g_loss=g_loss.item(),  # paef: ok host-sync; refuse host-sync
        )


# ---- driver (stands in for experiments/mnist_gan.py) ----
if __name__ == "__main__":
    from torch.utils.data import DataLoader, Dataset

    class RandomImages(Dataset):
        def __init__(self, n):
            g = torch.Generator().manual_seed(0)
            self.images = torch.rand(n, 1, 32, 32, generator=g) * 2 - 1

        def __len__(self):
            return len(self.images)

        def __getitem__(self, idx):
            return {"image": self.images[idx]}

    torch.manual_seed(42)
    train_loader = DataLoader(RandomImages(64), batch_size=16, shuffle=True)
    generator = Generator(img_size=32, latent_dim=16, out_channels=1, base=8)
    discriminator = Discriminator(img_size=32, in_channels=1, base=8)
    gan = GAN(generator, discriminator, loss_type="bce")
    history = fit(gan, train_loader, num_epochs=2, total_epochs=2)
    print("checksum", round(sum(sum(v) for v in history["train"].values()), 6))

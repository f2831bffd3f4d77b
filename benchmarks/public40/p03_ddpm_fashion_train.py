# Public check 40, p03: DDPM on FashionMNIST - noise schedule, training loop, reverse-diffusion sampling.
# Source: https://github.com/rafaelsoStanford/DDPM ddpm.py @ 1b6b7d61
# Changes to make it run on the CPU in seconds:
# - `from models.Unet import *` (the repo's UNet) -> a small stand-in UNet with the same constructor
#   (in_channels, out_channels, time_dim, device) and forward(x, t) (a sinusoidal time embedding added
#   to a 3-layer conv net).
# - `from utils import *` (get_data: torchvision FashionMNIST; save_images: PIL) -> stand-ins: 64 seeded
#   1x16x16 images in [-1, 1] with labels; save_images does nothing.
# - tqdm -> a stand-in that iterates and ignores set_postfix; matplotlib unused (not imported).
# - hyperparameters: epochs 100 -> 2, batch_size 128 -> 16, noise_steps stays 100 (the sampler runs 99 steps).
# - train() returns the model and the last samples (for the checksum); the driver runs in a temporary folder (the source writes ./results and ./models/ckpt.pt); the seed;
#   a checksum print at the end.
# The Diffusion class, train() and the driver's lines are the source's.
import math
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


# ---- stand-ins: tqdm, models.Unet, utils ----
class tqdm:
    def __init__(self, iterable, position=None):
        self.iterable = iterable

    def __iter__(self):
        return iter(self.iterable)

    def set_postfix(self, **kwargs):
        pass


class UNet(nn.Module):
    def __init__(self, in_channels=1, out_channels=1, time_dim=256, device="cuda"):
        super().__init__()
        self.time_dim = time_dim
        self.device = device
        self.inc = nn.Conv2d(in_channels, 16, 3, padding=1)
        self.emb = nn.Linear(time_dim, 16)
        self.mid = nn.Conv2d(16, 16, 3, padding=1)
        self.outc = nn.Conv2d(16, out_channels, 3, padding=1)

    def pos_encoding(self, t, channels):
        inv_freq = 1.0 / (10000 ** (torch.arange(0, channels, 2, device=self.device).float() / channels))
        pos_enc_a = torch.sin(t.repeat(1, channels // 2) * inv_freq)
        pos_enc_b = torch.cos(t.repeat(1, channels // 2) * inv_freq)
        return torch.cat([pos_enc_a, pos_enc_b], dim=-1)

    def forward(self, x, t):
        t = t.unsqueeze(-1).type(torch.float)
        t = self.pos_encoding(t, self.time_dim)
        h = torch.relu(self.inc(x)) + self.emb(t)[:, :, None, None]
        h = torch.relu(self.mid(h))
        return self.outc(h)


def get_data():
    g = torch.Generator().manual_seed(0)
    x = torch.rand(64, 1, 16, 16, generator=g) * 2 - 1
    y = torch.randint(0, 10, (64,), generator=g)
    return TensorDataset(x, y), TensorDataset(x[:16], y[:16])


def save_images(images, path):
    pass


# ---- source ----
# Hyperparameters up here for convenience
batch_size = 16
epochs = 2


class Diffusion:
    def __init__(self, noise_steps=100, beta_start=1e-4, beta_end=0.02, img_size=256, device="cuda"):
        self.noise_steps = noise_steps
        self.beta_start = beta_start
        self.beta_end = beta_end
        self.img_size = img_size
        self.device = torch.device(device)

        self.beta = self.prepare_noise_schedule().to(self.device)
        self.alpha = 1. - self.beta
        self.alpha_hat = torch.cumprod(self.alpha, dim=0)

    def prepare_noise_schedule(self):
        betas = torch.linspace(self.beta_start, self.beta_end, self.noise_steps)
        return betas

    def sample_timesteps(self, batch_size):
        return torch.randint(low=1, high=self.noise_steps, size=(batch_size,)).to(self.device)

    def noise_images(self, x_0, t):
        # Input: x_0 shape = (batch_size, 1, img_size, img_size)
        x_0 = x_0.to(self.device)
        z = torch.randn_like(x_0) # Std normal gaussain noise with same shape as x_0
        x_t = ( torch.sqrt(self.alpha_hat[t , None, None, None]) *
                        x_0 + torch.sqrt(1.0 - self.alpha_hat[t , None, None, None]) * z ) #Noisy image
        return x_t, z

    def sample(self, model, num_of_samples):
        # Input: model, num_of_samples
        # Output: samples of shape (num_of_samples, 1, img_size, img_size)
        with torch.no_grad():
            x = torch.randn((num_of_samples, 1, self.img_size, self.img_size)).to(self.device)
            for i in tqdm(reversed(range(1, self.noise_steps)), position=0):

                t = ( torch.ones(num_of_samples) * i ).long().to(self.device) # step goes backwards for each image in batch

                predicted_noise = model(x, t)
                alpha = self.alpha[t][:, None, None, None]
                alpha_hat = self.alpha_hat[t][:, None, None, None]
                beta = self.beta[t][:, None, None, None]

                # Sample noise for reparametrization trick
                if i > 1:
                    noise = torch.randn_like(x)
                else:
                    noise = torch.zeros_like(x) # No noise

                x = 1 / torch.sqrt(alpha) * (x - ((1 - alpha) / (torch.sqrt(1 - alpha_hat))) * predicted_noise) + torch.sqrt(beta) * noise

            x = (x.clamp(-1, 1) + 1) / 2
            x = (x * 255).type(torch.uint8)
            return x


def train(dataloader, epochs=100):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    print("Using {} device".format(device))

    data_sample = next(iter(dataloader))
    batch_size = data_sample[0].shape[0]
    img_size = data_sample[0].shape[-1]
    img_channels = data_sample[0].shape[1]


    diffusion = Diffusion(img_size=img_size, device=device)
    model = UNet(in_channels=img_channels, out_channels=img_channels, time_dim=256, device=device).to(device)
    mse = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)

    for epoch in range(epochs):
        pbar = tqdm(dataloader)
        for i, (images, _) in enumerate(pbar):
            images = images.to(device)
            batch_size = images.shape[0]

            t = diffusion.sample_timesteps(batch_size)
            x_t, noise = diffusion.noise_images(images, t)

            predicted_noise = model(x_t, t)

            loss = mse(noise, predicted_noise)

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            pbar.set_postfix(MSE=loss.item())

        # Generate n images by diffusing rand noise
        sampled_images = diffusion.sample(model, num_of_samples=10)
        if not os.path.exists("./results"):
        # Create the folder
          os.makedirs("./results")
        if not os.path.exists("./models"):
        # Create the folder
          os.makedirs("./models")
        save_images(sampled_images, os.path.join("results",  f"{epoch}.jpg"))
        torch.save(model.state_dict(), os.path.join("models", f"ckpt.pt"))
    return model, sampled_images  # driver: returns what train built (the source returns None)


if __name__ == "__main__":
    torch.manual_seed(0)
    os.chdir(tempfile.mkdtemp())
    training_data, test_data = get_data()
    train_dataloader = DataLoader(training_data, batch_size=batch_size, shuffle=True)
    test_dataloader = DataLoader(test_data, batch_size=batch_size, shuffle=True)
    model, sampled_images = train(train_dataloader, epochs=epochs)
    total = sum(float(p.detach().double().sum()) for p in model.parameters())
    print(f"checksum {total:.6f} {int(sampled_images.long().sum())}")

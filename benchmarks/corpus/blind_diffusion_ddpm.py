# corpus: runnable
"""DDPM-style diffusion: noise schedule built once in __init__, sinusoidal time embedding, sampling loop."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class SinusoidalPositionEmbeddings(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, time):
        device = time.device
        half_dim = self.dim // 2
        embeddings = math.log(10000) / (half_dim - 1)
        embeddings = torch.exp(torch.arange(half_dim, device=device) * -embeddings)  # paef: expect redundant-tensor
        embeddings = time[:, None] * embeddings[None, :]
        embeddings = torch.cat((embeddings.sin(), embeddings.cos()), dim=-1)
        return embeddings


class Denoiser(nn.Module):
    def __init__(self, data_dim=8, time_dim=16):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPositionEmbeddings(time_dim), nn.Linear(time_dim, 32), nn.SiLU())
        self.net = nn.Sequential(nn.Linear(data_dim + 32, 64), nn.SiLU(), nn.Linear(64, data_dim))

    def forward(self, x, t):
        return self.net(torch.cat([x, self.time_mlp(t)], dim=-1))


class Diffusion:
    def __init__(self, timesteps=20, beta_start=1e-4, beta_end=0.02):
        self.timesteps = timesteps
        self.betas = torch.linspace(beta_start, beta_end, timesteps).to(device)  # paef: ok cpu-then-move
        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)
        self.alphas_cumprod_prev = F.pad(self.alphas_cumprod[:-1], (1, 0), value=1.0)
        self.sqrt_recip_alphas = torch.sqrt(1.0 / self.alphas)
        self.sqrt_alphas_cumprod = torch.sqrt(self.alphas_cumprod)
        self.sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - self.alphas_cumprod)
        self.posterior_variance = self.betas * (1.0 - self.alphas_cumprod_prev) / (1.0 - self.alphas_cumprod)

    @staticmethod
    def extract(a, t, x_shape):
        batch_size = t.shape[0]
        out = a.gather(-1, t)
        return out.reshape(batch_size, *((1,) * (len(x_shape) - 1)))

    def q_sample(self, x_start, t, noise=None):
        if noise is None:
            noise = torch.randn_like(x_start)
        sqrt_alphas_cumprod_t = self.extract(self.sqrt_alphas_cumprod, t, x_start.shape)
        sqrt_one_minus_alphas_cumprod_t = self.extract(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape)
        return sqrt_alphas_cumprod_t * x_start + sqrt_one_minus_alphas_cumprod_t * noise

    def p_losses(self, model, x_start, t):
        noise = torch.randn_like(x_start)
        x_noisy = self.q_sample(x_start, t, noise=noise)
        predicted_noise = model(x_noisy, t)
        return F.smooth_l1_loss(noise, predicted_noise)

    @torch.no_grad()
    def p_sample(self, model, x, t, t_index):
        betas_t = self.extract(self.betas, t, x.shape)
        sqrt_one_minus_alphas_cumprod_t = self.extract(self.sqrt_one_minus_alphas_cumprod, t, x.shape)
        sqrt_recip_alphas_t = self.extract(self.sqrt_recip_alphas, t, x.shape)
        model_mean = sqrt_recip_alphas_t * (x - betas_t * model(x, t) / sqrt_one_minus_alphas_cumprod_t)
        if t_index == 0:
            return model_mean
        posterior_variance_t = self.extract(self.posterior_variance, t, x.shape)
        noise = torch.randn_like(x)
        return model_mean + torch.sqrt(posterior_variance_t) * noise

    @torch.no_grad()
    def sample(self, model, n, dim):
        x = torch.randn(n, dim, device=device)
        for i in reversed(range(0, self.timesteps)):
            x = self.p_sample(model, x, torch.full((n,), i, device=device, dtype=torch.long), i)
        return x


data = torch.randn(256, 8) * 0.5 + torch.linspace(-1, 1, 8)
diffusion = Diffusion()
model = Denoiser().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
batch_size = 64

for epoch in range(2):
    perm = torch.randperm(len(data))
    for step in range(0, len(data), batch_size):
        batch = data[perm[step : step + batch_size]].to(device)  # paef: ok pageable-transfer; ok cpu-then-move
        optimizer.zero_grad()
        t = torch.randint(0, diffusion.timesteps, (batch.shape[0],), device=device).long()
        loss = diffusion.p_losses(model, batch, t)
        if step % 256 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        loss.backward()
        optimizer.step()

samples = diffusion.sample(model, 16, 8)
print("sample mean", round(samples.mean().item(), 4))

# corpus: runnable
# Public check 35 p04 (DDPM with EMA): `extract` brings the timesteps to the host and the
# gathered schedule back on every call, and the sampler builds `t` on the host every step;
# both missed at first contact.
"""DDPM trainer in the style of small public diffusion repositories: EMA, sampling at eval."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0, 0.999)


def extract(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t.cpu())  # paef: expect ping-pong
    return out.reshape(b, *((1,) * (len(x_shape) - 1))).to(t.device)


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        half_dim = self.dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, device=x.device) * -emb)  # paef: ok redundant-tensor
        emb = x[:, None] * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


class TinyUnet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(16), nn.Linear(16, ch), nn.GELU())
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.mid = nn.Conv2d(ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.time_mlp(t.float())[:, :, None, None]
        h = F.silu(self.mid(F.silu(h)))
        return self.out(h)


class GaussianDiffusion(nn.Module):
    def __init__(self, model, timesteps=50):
        super().__init__()
        self.model = model
        self.num_timesteps = timesteps
        betas = cosine_beta_schedule(timesteps)
        alphas = 1.0 - betas
        alphas_cumprod = torch.cumprod(alphas, dim=0)
        alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
        self.betas = betas.float()
        self.sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod).float()
        self.sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - alphas_cumprod).float()
        self.sqrt_recip_alphas = torch.sqrt(1.0 / alphas).float()
        self.posterior_variance = (betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)).float()

    def q_sample(self, x_start, t, noise):
        return (extract(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start
                + extract(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise)

    def p_losses(self, x_start, t):
        noise = torch.randn_like(x_start)
        x_noisy = self.q_sample(x_start, t, noise)
        predicted_noise = self.model(x_noisy, t)
        return F.mse_loss(noise, predicted_noise)

    def forward(self, img):
        b = img.shape[0]
        t = torch.randint(0, self.num_timesteps, (b,), device=img.device).long()
        return self.p_losses(img, t)

    def p_sample(self, x, t, t_index):
        betas_t = extract(self.betas, t, x.shape)
        sqrt_one_minus_t = extract(self.sqrt_one_minus_alphas_cumprod, t, x.shape)
        sqrt_recip_alphas_t = extract(self.sqrt_recip_alphas, t, x.shape)
        model_mean = sqrt_recip_alphas_t * (x - betas_t * self.model(x, t) / sqrt_one_minus_t)
        if t_index == 0:
            return model_mean
        posterior_variance_t = extract(self.posterior_variance, t, x.shape)
        return model_mean + torch.sqrt(posterior_variance_t) * torch.randn_like(x)

    def sample(self, shape, device):
        img = torch.randn(shape, device=device)
        for i in reversed(range(0, self.num_timesteps)):
            t = torch.tensor([i] * shape[0]).to(device)  # paef: expect cpu-then-move
            img = self.p_sample(img, t, i)
        return img.clamp(-1, 1)


class EMA:
    def __init__(self, beta):
        self.beta = beta
        self.step = 0

    def update_model_average(self, ma_model, current_model):
        for current_params, ma_params in zip(current_model.parameters(), ma_model.parameters()):
            old_weight, up_weight = ma_params.data, current_params.data
            ma_params.data = self.update_average(old_weight, up_weight)

    def update_average(self, old, new):
        if old is None:
            return new
        return old * self.beta + (1 - self.beta) * new

    def step_ema(self, ema_model, model, step_start_ema=4):
        if self.step < step_start_ema:
            ema_model.load_state_dict(model.state_dict())
        else:
            self.update_model_average(ema_model, model)
        self.step += 1


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    g = torch.Generator().manual_seed(0)
    data = torch.rand(64, 1, 8, 8, generator=g) * 2 - 1
    loader = DataLoader(TensorDataset(data), batch_size=16, shuffle=True)  # paef: ok pageable-transfer; ok sync-dataloader
    diffusion = GaussianDiffusion(TinyUnet()).to(device)
    ema = EMA(0.995)
    ema_diffusion = copy.deepcopy(diffusion).eval().requires_grad_(False)
    optimizer = torch.optim.Adam(diffusion.parameters(), lr=2e-4)
    losses = []
    for epoch in range(3):
        for step, (batch,) in enumerate(loader):
            batch = batch.to(device)  # paef: ok pageable-transfer
            loss = diffusion(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.step_ema(ema_diffusion, diffusion)
            losses.append(loss.item())  # paef: expect host-sync
        print(f"epoch {epoch} loss {sum(losses[-len(loader):]) / len(loader):.4f}")
        ema_diffusion.eval()
        samples = ema_diffusion.sample((4, 1, 8, 8), device)  # paef: ok eval-without-no-grad
        print("sample mean", round(samples.mean().item(), 4))
    checksum = sum(p.detach().double().sum().item() for p in ema_diffusion.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()

# corpus: runnable
"""A tiny DDPM trained on 2-D points, in the style of dome272/Diffusion-Models-pytorch: the
Diffusion helper draws timesteps and noise in its own methods, the training loop moves them."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Diffusion:
    def __init__(self, noise_steps=50, beta_start=1e-4, beta_end=0.02, device="cpu"):
        self.noise_steps = noise_steps
        self.device = device
        self.beta = torch.linspace(beta_start, beta_end, noise_steps).to(device)  # paef: ok cpu-then-move
        self.alpha_hat = torch.cumprod(1.0 - self.beta, dim=0)

    def noise_images(self, x, t):
        sqrt_alpha_hat = torch.sqrt(self.alpha_hat[t])[:, None]
        sqrt_one_minus = torch.sqrt(1 - self.alpha_hat[t])[:, None]
        eps = torch.randn_like(x)
        return sqrt_alpha_hat * x + sqrt_one_minus * eps, eps

    def sample_timesteps(self, n):
        return torch.randint(low=1, high=self.noise_steps, size=(n,))

    def sample_timesteps_on_device(self, n):
        return torch.randint(low=1, high=self.noise_steps, size=(n,), device=self.device)


class Denoiser(nn.Module):
    def __init__(self, dim=2, hidden=64, steps=50):
        super().__init__()
        self.t_embed = nn.Embedding(steps, hidden)
        self.inp = nn.Linear(dim, hidden)
        self.out = nn.Sequential(nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x, t):
        return self.out(self.inp(x) + self.t_embed(t))


data = torch.randn(512, 2) * torch.tensor([1.0, 0.3])
data = data.to(device)
diffusion = Diffusion(device=device)
model = Denoiser().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
mse = nn.MSELoss()
for epoch in range(3):
    for i in range(0, len(data), 64):
        x = data[i : i + 64]
        t = diffusion.sample_timesteps(x.shape[0]).to(device)  # paef: expect cpu-then-move
        x_t, noise = diffusion.noise_images(x, t)
        loss = mse(model(x_t, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    t_val = diffusion.sample_timesteps_on_device(64)
    with torch.no_grad():
        x_t, noise = diffusion.noise_images(data[:64], t_val)
        val = mse(model(x_t, t_val), noise)
    print(f"epoch {epoch} val {val.item():.4f}")

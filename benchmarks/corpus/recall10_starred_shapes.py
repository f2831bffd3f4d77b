# corpus: runnable
"""A 1-D Gaussian diffusion wrapper in the style of lucidrains' denoising-diffusion-pytorch-1d: the
shape unpacking mixes a tensor's shape, its device and a Python attribute through a starred tuple."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Denoiser1D(nn.Module):
    def __init__(self, channels=2, steps=40):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, 3, padding=1)
        self.t_emb = nn.Embedding(steps, channels)

    def forward(self, x, t):
        return self.conv(x) + self.t_emb(t)[:, :, None]


class GaussianDiffusion1D(nn.Module):
    def __init__(self, model, seq_length, timesteps=40):
        super().__init__()
        self.model = model
        self.seq_length = seq_length
        self.num_timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.register_buffer("sqrt_ac", torch.sqrt(torch.cumprod(1 - betas, 0)))
        self.register_buffer("sqrt_1m_ac", torch.sqrt(1 - torch.cumprod(1 - betas, 0)))

    def p_losses(self, x_start, t):
        noise = torch.randn_like(x_start)
        x = self.sqrt_ac[t][:, None, None] * x_start + self.sqrt_1m_ac[t][:, None, None] * noise
        return F.mse_loss(self.model(x, t), noise)

    def forward(self, img):
        b, c, n, device, seq_length, = *img.shape, img.device, self.seq_length
        if n != seq_length:
            raise ValueError(f"seq length must be {seq_length}, got {n}")
        half = seq_length // 2
        t = torch.randint(0, self.num_timesteps, (b,), device=device).long()
        return self.p_losses(img[:, :, :half].repeat(1, 1, 2)[:, :, :n], t)


def grad_norm(module):
    return sum(p.grad.norm().item() ** 2 for p in module.parameters() if p.grad is not None) ** 0.5  # paef: expect host-sync


def param_count(module):
    return sum(p.numel() for p in module.parameters())


data = torch.randn(256, 2, 24).to(device)  # paef: ok cpu-then-move
diffusion = GaussianDiffusion1D(Denoiser1D(), seq_length=24).to(device)
opt = torch.optim.Adam(diffusion.parameters(), lr=1e-3)
losses = torch.zeros(8, device=device)
for step in range(8):
    batch = data[step * 32 : (step + 1) * 32]
    loss = diffusion(batch)
    opt.zero_grad()
    loss.backward()
    gn = grad_norm(diffusion)
    opt.step()
    losses[step] = loss.detach()
print("params", param_count(diffusion), "last grad norm", round(gn, 3))
print("losses", [round(v, 4) for v in losses.tolist()])

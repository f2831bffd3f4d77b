# corpus: runnable
"""A DDPM trainer whose noise scheduler keeps its tables on the host and copies the two it needs to
the images' device inside `add_noise`, on every training step; the loss is read every step too."""
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class LinearNoiseScheduler:
    def __init__(self, num_timesteps, beta_start, beta_end):
        self.num_timesteps = num_timesteps
        self.betas = torch.linspace(beta_start, beta_end, num_timesteps)
        self.alphas = 1.0 - self.betas
        self.alpha_cum_prod = torch.cumprod(self.alphas, dim=0)
        self.sqrt_alpha_cum_prod = torch.sqrt(self.alpha_cum_prod)
        self.sqrt_one_minus_alpha_cum_prod = torch.sqrt(1 - self.alpha_cum_prod)

    def add_noise(self, original, noise, t):
        batch_size = original.shape[0]
        a = self.sqrt_alpha_cum_prod.to(original.device)[t].reshape(batch_size, 1)  # paef: expect redundant-tensor
        b = self.sqrt_one_minus_alpha_cum_prod.to(original.device)[t].reshape(batch_size, 1)  # paef: expect redundant-tensor
        return a * original + b * noise


class Denoiser(nn.Module):
    def __init__(self, dim=16, steps=50):
        super().__init__()
        self.time = nn.Embedding(steps, dim)
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.SiLU(), nn.Linear(32, dim))

    def forward(self, x, t):
        return self.net(x + self.time(t))


def main():
    torch.manual_seed(0)
    data = torch.randn(256, 16)
    scheduler = LinearNoiseScheduler(50, 1e-4, 0.02)
    model = Denoiser().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        losses = []
        for i in range(0, len(data), 32):
            im = data[i:i + 32].to(device)
            noise = torch.randn_like(im)
            t = torch.randint(0, scheduler.num_timesteps, (im.shape[0],), device=device)
            loss = (model(scheduler.add_noise(im, noise, t), t) - noise).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())  # paef: expect host-sync
        print(f"epoch {epoch} loss {np.mean(losses):.6f}")


if __name__ == "__main__":
    main()

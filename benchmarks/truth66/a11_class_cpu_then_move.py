"""A toy DDPM on 2-D points: the noise schedule object draws each step's noise on the CPU and
moves it to the model's device."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class NoiseSchedule:
    def __init__(self, steps, device):
        betas = torch.linspace(1e-4, 0.02, steps)
        self.alpha_bar = torch.cumprod(1.0 - betas, dim=0).to(device)
        self.steps = steps

    def add_noise(self, x0, t):
        noise = torch.randn(x0.shape).to(x0.device)
        ab = self.alpha_bar[t].unsqueeze(1)
        return ab.sqrt() * x0 + (1.0 - ab).sqrt() * noise, noise


torch.manual_seed(0)
schedule = NoiseSchedule(200, device)
model = nn.Sequential(nn.Linear(3, 64), nn.SiLU(), nn.Linear(64, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
points = torch.randn(20000, 2, device=device)
for step in range(60):
    x0 = points[torch.randint(0, len(points), (8192,), device=device)]
    t = torch.randint(0, schedule.steps, (len(x0),), device=device)
    xt, noise = schedule.add_noise(x0, t)
    pred = model(torch.cat([xt, (t.float() / schedule.steps).unsqueeze(1)], dim=1))
    loss = F.mse_loss(pred, noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")

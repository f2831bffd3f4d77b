"""A DDPM-style sampler that saves every step's prediction as an image: the per-step copy to the
host feeds the file written in the same step (the program's output), so it is no removable sync.
Static only (torchvision is not installed where the corpus runs)."""
import os

import torch
import torch.nn as nn
import torchvision
from torchvision.utils import make_grid

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.SiLU(), nn.Linear(32, 16))

    def forward(self, x, t):
        return self.net(x) * (1 + t.float() / 100)


def sample(model, num_steps, out_dir):
    xt = torch.randn(4, 16, device=device)
    betas = torch.linspace(1e-4, 0.02, num_steps, device=device)
    for i in reversed(range(num_steps)):
        t = torch.full((4, 1), i, device=device)
        xt = (xt - betas[i] * model(xt, t)) / torch.sqrt(1 - betas[i])
        ims = torch.clamp(xt, -1.0, 1.0).detach().cpu()
        ims = (ims + 1) / 2
        grid = make_grid(ims.view(4, 1, 4, 4), nrow=2)
        img = torchvision.transforms.ToPILImage()(grid)
        img.save(os.path.join(out_dir, f"x0_{i}.png"))


def infer():
    model = Denoiser().to(device)
    model.eval()
    with torch.no_grad():
        sample(model, 50, "samples")


if __name__ == "__main__":
    infer()

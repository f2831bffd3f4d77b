# corpus: runnable
# Red team 29a, wave 2 (blind): a small U-Net-ish 1-d denoiser with a module-level `lrelu` helper
# (hand-written, as in many GAN repositories). The decoder adds the skip connection in place to the
# tensor it just activated.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)


def lrelu(x):
    return torch.where(x > 0, x, 0.1 * x)


class Denoiser(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.enc = nn.Conv1d(1, ch, 5, padding=2)
        self.mid = nn.Conv1d(ch, ch, 5, padding=2)
        self.dec = nn.Conv1d(ch, 1, 5, padding=2)

    def forward(self, x):
        e = self.enc(x)
        m = self.mid(lrelu(e))
        e.add_(m)
        return self.dec(lrelu(e))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=30)
    args = parser.parse_args([])
    torch.manual_seed(8)
    gen = torch.Generator().manual_seed(8)
    t = torch.linspace(0, 6.28, 64)
    model = Denoiser(6)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(args.steps):
        clean = torch.sin(t * (1 + torch.rand(8, 1, 1, generator=gen)))
        noisy = clean + 0.3 * torch.randn(clean.shape, generator=gen)
        loss = nn.functional.mse_loss(model(noisy), clean)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 9:
            print(f"step {step + 1} mse {loss.item():.6f}")


if __name__ == "__main__":
    main()

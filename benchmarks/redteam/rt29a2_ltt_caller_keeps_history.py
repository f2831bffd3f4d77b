# corpus: runnable
# Red team 29a, wave 2 (blind): a GAN-style loop whose `d_step` appends the discriminator loss to a
# history list the caller owns and returns the mean of the whole history (for a plateau check). The
# caller prints the latest value and keeps the best one.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)


def d_step(disc, opt, real, fake, history):
    bce = nn.functional.binary_cross_entropy_with_logits
    loss = bce(disc(real), torch.ones(len(real), 1)) + bce(disc(fake), torch.zeros(len(fake), 1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    for p in disc.parameters():
        history.append(p.grad.norm().item())
    return torch.tensor(history).mean().item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    args = parser.parse_args([])
    torch.manual_seed(6)
    gen = torch.Generator().manual_seed(6)
    disc = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = torch.optim.Adam(disc.parameters(), lr=1e-2)
    grad_norms = []
    best = None
    for step in range(args.steps):
        real = torch.randn(16, 3, generator=gen) + 2.0
        fake = torch.randn(16, 3, generator=gen)
        mean_norm = d_step(disc, opt, real, fake, grad_norms)
        latest = grad_norms[-1]
        best = latest if best is None else min(best, latest)
        if step % 4 == 3:
            print(f"step {step + 1} mean {mean_norm:.5f} latest {latest} best {best}")


if __name__ == "__main__":
    main()

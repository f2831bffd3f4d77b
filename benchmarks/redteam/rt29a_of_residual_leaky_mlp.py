# corpus: runnable
# Red team 29a, wave 1 (blind): a residual MLP critic (WGAN style) with a hand-written leaky ReLU.
# Each block adds its branch to the stream in place (`h += ...`), after the activation read it.
import argparse

import torch
from torch import nn

torch.set_num_threads(1)


class ResBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.Linear(width, width)
        self.fc2 = nn.Linear(width, width)

    def forward(self, x):
        h = self.fc1(x)
        a = torch.where(h > 0, h, 0.2 * h)
        h += self.fc2(a)
        return h


class Critic(nn.Module):
    def __init__(self, d_in, width, depth):
        super().__init__()
        self.inp = nn.Linear(d_in, width)
        self.blocks = nn.ModuleList(ResBlock(width) for _ in range(depth))
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        h = self.inp(x)
        for block in self.blocks:
            h = block(h)
        return self.head(h).squeeze(-1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args([])
    torch.manual_seed(0)
    critic = Critic(4, 24, 2)
    opt = torch.optim.RMSprop(critic.parameters(), lr=5e-4)
    gen = torch.Generator().manual_seed(5)
    for step in range(args.steps):
        real = torch.randn(32, 4, generator=gen) * 0.5 + 1.0
        fake = torch.randn(32, 4, generator=gen)
        loss = critic(fake).mean() - critic(real).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        for p in critic.parameters():
            p.data.clamp_(-0.05, 0.05)
        if step % 10 == 9:
            print(f"step {step + 1} wasserstein {-loss.item():.6f}")


if __name__ == "__main__":
    main()

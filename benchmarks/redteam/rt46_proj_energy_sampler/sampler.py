"""Langevin dynamics on a learned energy. Each step needs dE/dx for the samples, so sampling runs with
autograd on whatever the caller's mode is. Noise comes from the generator the caller passes, inside a
forked RNG so that sampling never disturbs the global stream."""
import torch


def langevin(energy, x, steps, step_size, gen):
    with torch.random.fork_rng(devices=[]):
        for _ in range(steps):
            x = x.detach().requires_grad_(True)
            e = energy(x).sum()
            (g,) = torch.autograd.grad(e, x)
            noise = torch.randn(x.shape, generator=gen).to(x.device)
            x = x - step_size * g + (2 * step_size) ** 0.5 * 0.1 * noise
    return x.detach()


class ReplayBuffer:
    """Keeps past samples; `draw` mixes them with fresh uniform noise."""

    def __init__(self, size, dim, gen):
        self.gen = gen
        self.items = torch.rand(size, dim, generator=gen) * 4 - 2

    def draw(self, n, device):
        idx = torch.randperm(len(self.items), generator=self.gen)[:n]
        return self.items[idx].to(device)

    def push(self, x):
        self.items = torch.cat([x.cpu(), self.items])[:len(self.items)]

"""Periodic token streams with a little noise: easy for a big model, mostly easy for a small one."""
import torch

from lm import V


def streams(n, length, gen):
    period = torch.randint(2, 5, (n, 1), generator=gen)
    phase = torch.randint(0, V, (n, 1), generator=gen)
    t = torch.arange(length)
    x = (phase + (t % period) * 3) % V
    noise = torch.rand(n, length, generator=gen) < 0.05
    return torch.where(noise, torch.randint(0, V, (n, length), generator=gen), x)

"""Per-batch augmentation whose randomness comes from a CPU generator reseeded from the global step, so a
run can be replayed batch by batch whatever else draws from the global generator."""
import numpy as np
import torch


class StepAugment:
    def __init__(self, seed, sigma=0.15, p_drop=0.2):
        self.gen = torch.Generator()
        self.seed = seed
        self.sigma = sigma
        self.p_drop = p_drop

    def reseed(self, step):
        self.gen.manual_seed(self.seed * 100_003 + step)

    def __call__(self, x):
        noise = torch.randn(x.shape, generator=self.gen).to(x.device)
        keep = (torch.rand(x.size(0), x.size(1), generator=self.gen) > self.p_drop).float().to(x.device)
        return (x + self.sigma * noise) * keep


def mixup_lambda(alpha, gen):
    """A Beta draw made from two Gamma draws on the given NumPy generator (a float64 on the host)."""
    a, b = gen.gamma(alpha), gen.gamma(alpha)
    return a / (a + b)


def feature_shift(gen, rows, cols, scale):
    return torch.from_numpy(gen.normal(0.0, scale, size=(rows, cols))).float()

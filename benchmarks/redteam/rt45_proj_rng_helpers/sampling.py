"""A permutation helper that takes its generator explicitly (the caller owns the stream)."""
import torch


def epoch_order(n, gen):
    return torch.randperm(n, generator=gen)


def noise_like(shape, gen):
    return torch.randn(shape, generator=gen)

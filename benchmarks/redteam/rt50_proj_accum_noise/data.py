"""Micro-batches of a small classification set, regrouped so that every optimizer step sees `accum` of them."""
import torch


def make_batches(n=96, dim=5, micro=6, seed=51):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, dim, generator=g)
    y = (x[:, 0] - 0.5 * x[:, 1] + 0.2 * torch.randn(n, generator=g) > 0).long()
    return [(x[i:i + micro], y[i:i + micro]) for i in range(0, n, micro)]

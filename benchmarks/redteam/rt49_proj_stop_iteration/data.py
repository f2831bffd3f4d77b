"""Synthetic batches; the third batch of every epoch carries a NaN row that the loop must skip."""
import torch


def make_batches(seed, n=6, rows=16, dim=5):
    g = torch.Generator().manual_seed(seed)
    out = []
    for b in range(n):
        x = torch.randn(rows, dim, generator=g)
        y = (x[:, :2].sum(1, keepdim=True) > 0).float()
        if b == 2:
            x[3, 1] = float('nan')
        out.append((x, y))
    return out


def is_bad(x):
    return bool(torch.isnan(x).any())

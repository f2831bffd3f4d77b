import torch

N, D, C = 600, 10, 3


def make_data(seed):
    g = torch.Generator().manual_seed(seed)
    proto = torch.randn(C, D, generator=g) * 1.2
    y = torch.randint(0, C, (N,), generator=g)
    x = proto[y] + torch.randn(N, D, generator=g)
    x[:, :3] = x[:, :3] ** 2 - 1.0
    return x, y


def batches(x, y, size, g):
    perm = torch.randperm(x.shape[0], generator=g)
    for i in range(0, x.shape[0], size):
        idx = perm[i:i + size]
        yield x[idx], y[idx]

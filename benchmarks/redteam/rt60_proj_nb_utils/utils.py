"""Helpers shared by the analysis notebook (kept here so that several notebooks can import them)."""
import torch
import torch.nn.functional as F


def make_blobs(n, d, k, seed, device):
    g = torch.Generator().manual_seed(seed)
    centres = torch.randn(k, d, generator=g) * 2
    y = torch.randint(0, k, (n,), generator=g)
    x = centres[y] + torch.randn(n, d, generator=g)
    return x.to(device), y.to(device)


def predict_proba(model, x):
    """Class probabilities in eval mode (dropout off)."""
    model.eval()
    probs = F.softmax(model(x), dim=1)
    model.train()
    return probs


def accuracy(model, x, y, bs=128):
    model.eval()
    hits = 0
    for i in range(0, x.shape[0], bs):
        hits += (model(x[i:i + bs]).argmax(1) == y[i:i + bs]).sum().item()
    model.train()
    return hits / x.shape[0]


class Meter:
    """Running mean of a scalar, with its history (one value per `flush`)."""

    def __init__(self):
        self.total, self.count, self.history = 0.0, 0, []

    def add(self, value, n=1):
        self.total += value * n
        self.count += n

    def flush(self):
        self.history.append(self.total / max(self.count, 1))
        self.total, self.count = 0.0, 0
        return self.history[-1]


def onehot_smooth(y, k, eps=0.1):
    out = torch.zeros(y.shape[0], k).to(y.device)
    out.fill_(eps / k)
    out.scatter_(1, y[:, None], 1 - eps + eps / k)
    return out

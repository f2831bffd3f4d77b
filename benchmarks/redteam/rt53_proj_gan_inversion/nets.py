"""A tiny generator (latent 4 -> 12-dim 'image') and an encoder with BatchNorm for the warm start."""
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 24), nn.LeakyReLU(0.2), nn.Linear(24, 12), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 24), nn.BatchNorm1d(24), nn.ReLU(), nn.Linear(24, 4))

    def forward(self, x):
        return self.net(x)


def encode_into(enc, x, out):
    """Encode with the BatchNorm statistics frozen; leaves the code in out['z']."""
    enc.eval()
    out['z'] = enc(x)
    out['norm'] = out['z'].norm(dim=1).mean()

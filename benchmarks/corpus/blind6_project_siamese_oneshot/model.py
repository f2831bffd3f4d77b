"""Siamese convolutional network (Koch et al. style, shrunk): shared encoder, L1 distance of the
two embeddings, a linear layer to one logit."""
import torch
import torch.nn as nn


class SiameseNet(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(32 * 5 * 5, dim), nn.Sigmoid(),
        )
        self.out = nn.Linear(dim, 1)

    def embed(self, x):
        return self.encoder(x)

    def forward(self, a, b):
        return self.out(torch.abs(self.embed(a) - self.embed(b))).squeeze(1)

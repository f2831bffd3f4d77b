import torch
from torch import nn


class TinySeg(nn.Module):
    """Two strided convolutions: logits at a quarter of the input resolution."""

    def __init__(self, classes):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, classes, 1),
        )

    def forward(self, x):
        return self.net(x)

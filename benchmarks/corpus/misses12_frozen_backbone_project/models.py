"""Models of the project: a small conv backbone standing in for a pretrained ResNet, and two
heads built on it. `LinearProbe` keeps the backbone in eval mode and trains only its own
classifier (the optimizer in main.py takes `model.head.parameters()`), but the backbone's
weights still require grad: its forward records a graph every step. `FrozenProbe` switches
`requires_grad` off: nothing is recorded. `FineTuner` trains everything."""
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1, stride=2), nn.BatchNorm2d(width), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.out_dim = width

    def forward(self, x):
        return self.features(x)


def pretrained_backbone(seed=123):
    torch.manual_seed(seed)
    return Backbone()


class LinearProbe(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.backbone = pretrained_backbone()
        self.backbone.eval()
        self.head = nn.Linear(self.backbone.out_dim, n_classes)

    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()  # keep the pretrained statistics
        return self

    def forward(self, x):
        feats = self.backbone(x)  # paef: expect eval-without-no-grad
        return self.head(feats)


class FrozenProbe(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.backbone = pretrained_backbone()
        for p in self.backbone.parameters():
            p.requires_grad = False
        self.head = nn.Linear(self.backbone.out_dim, n_classes)

    def forward(self, x):
        with torch.no_grad():
            feats = self.backbone(x)
        return self.head(feats)


class FineTuner(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.backbone = pretrained_backbone()
        self.head = nn.Linear(self.backbone.out_dim, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))

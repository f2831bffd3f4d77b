"""A small frozen convolutional feature extractor standing in for a pretrained VGG."""
import torch
import torch.nn as nn


class Extractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.Conv2d(8, 12, 3, padding=1), nn.ReLU(), nn.AvgPool2d(2)),
            nn.Sequential(nn.Conv2d(12, 16, 3, padding=1), nn.ReLU()),
        ])

    def forward(self, x):
        feats = []
        for block in self.blocks:
            x = block(x)
            feats.append(x)
        return feats


def frozen_extractor(device):
    net = Extractor().to(device)
    for p in net.parameters():
        p.requires_grad_(False)
    return net


def gram(f):
    b, c, h, w = f.shape
    m = f.reshape(b, c, h * w)
    return m @ m.transpose(1, 2) / (c * h * w)


class Recorder:
    """Keeps the last computed losses so that the caller can read and back-propagate them."""

    def __init__(self):
        self.terms = {}

    def measure(self, net, img, content_target, style_targets, style_weight):
        net.eval()
        feats = net(img)
        self.terms['content'] = ((feats[2] - content_target) ** 2).mean()
        self.terms['style'] = sum(((gram(f) - s) ** 2).sum() for f, s in zip(feats, style_targets))
        self.terms['total'] = self.terms['content'] + style_weight * self.terms['style']

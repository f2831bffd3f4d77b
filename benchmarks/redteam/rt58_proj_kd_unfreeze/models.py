import torch.nn as nn

from data import C, D


class Backbone(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(D, width), nn.BatchNorm1d(width), nn.ReLU(),
                                  nn.Linear(width, width), nn.BatchNorm1d(width), nn.ReLU())

    def forward(self, x):
        return self.body(x)


class Classifier(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.backbone = Backbone(width)
        self.head = nn.Linear(width, C)

    def features(self, x):
        return self.backbone(x)

    def forward(self, x):
        return self.head(self.backbone(x))

import torch.nn as nn

D, H, P = 12, 24, 8


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Linear(h, o))


class Online(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = mlp(D, H, P)
        self.predictor = mlp(P, H, P)

    def project(self, x):
        return self.encoder(x)

    def forward(self, x):
        return self.predictor(self.encoder(x))

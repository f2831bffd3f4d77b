"""Generator and critic for 1-D mixtures; the critic's activation is written by hand."""
import torch
import torch.nn as nn


class LeakyAct(nn.Module):
    def __init__(self, slope=0.2):
        super().__init__()
        self.slope = slope

    def forward(self, x):
        return torch.where(x > 0, x, x * self.slope)  # paef: expect operator-fusion


class Generator(nn.Module):
    def __init__(self, nz=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(nz, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 32), LeakyAct(), nn.Linear(32, 32), LeakyAct(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)

import torch.nn as nn


class EnergyNet(nn.Module):
    def __init__(self, dim=2, width=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, width), nn.SiLU(), nn.Linear(width, width), nn.SiLU(),
                                 nn.Linear(width, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)

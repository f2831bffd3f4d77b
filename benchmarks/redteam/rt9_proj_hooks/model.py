import torch
import torch.nn as nn


class Encoder(nn.Module):
    """An encoder that standardises its input in place before the first layer (saves a copy)."""

    def __init__(self, dim=4):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.register_forward_pre_hook(self._standardise)

    @staticmethod
    def _standardise(module, inputs):
        x = inputs[0]
        x.sub_(x.mean()).div_(x.std() + 1.0)

    def forward(self, x):
        return torch.tanh(self.fc(x))

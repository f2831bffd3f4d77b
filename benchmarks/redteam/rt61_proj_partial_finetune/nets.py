"""A small encoder split into a stem and a top block, plus a linear head. Forward hooks record the top block's
output per call in a dict (used for a feature-regularisation term)."""
import torch.nn as nn

D, E, C = 18, 24, 4


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(D, 48), nn.BatchNorm1d(48), nn.ReLU(), nn.Linear(48, 48), nn.ReLU())
        self.top = nn.Sequential(nn.Linear(48, E), nn.Tanh())

    def forward(self, x):
        return self.top(self.stem(x))


def record_top(encoder, store):
    def hook(module, inputs, output):
        store['top'] = output
    return encoder.top.register_forward_hook(hook)

"""A standardised-weight linear layer whose standardised weight is memoised in a module-level table keyed
by the layer's id and the raw weight's version (an optimizer step invalidates it, evaluation reuses it)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

_STANDARDIZED = {}


def standardized(weight, key):
    entry = _STANDARDIZED.get(key)
    if entry is None or entry[0] != weight._version:
        w = (weight - weight.mean(1, keepdim=True)) / (weight.std(1, keepdim=True) + 1e-5)
        entry = _STANDARDIZED[key] = (weight._version, w)
    return entry[1]


class WSLinear(nn.Linear):
    def forward(self, x):
        return F.linear(x, standardized(self.weight, id(self)), self.bias)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = WSLinear(6, 12)
        self.head = nn.Linear(12, 3)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))

"""A network whose forward standardises its first layer's weight through a module-level memo keyed by
the weight's identity and version (recomputed only after the optimizer changes it)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

_MEMO = {}


def standardised(w):
    key = (id(w), w._version)
    if key not in _MEMO:
        _MEMO.clear()
        _MEMO[key] = (w - w.mean(1, keepdim=True)) / (w.std(1, keepdim=True) + 1e-5)
    return _MEMO[key]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 12)
        self.head = nn.Linear(12, 3)

    def forward(self, x):
        h = F.linear(x, standardised(self.body.weight), self.body.bias)
        return self.head(torch.relu(h))

"""A standardised-weight linear layer keeping its last standardised weight in a one-slot list (filled by
`append`, emptied by `clear` when the raw weight's version moved)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WSLinear(nn.Linear):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.slot = []
        self.seen = [-1]

    def forward(self, x):
        if not self.slot or self.seen[0] != self.weight._version:
            self.slot.clear()
            w = self.weight
            self.slot.append((w - w.mean(1, keepdim=True)) / (w.std(1, keepdim=True) + 1e-5))
            self.seen[0] = self.weight._version
        return F.linear(x, self.slot[0], self.bias)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = WSLinear(6, 12)
        self.head = nn.Linear(12, 3)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))

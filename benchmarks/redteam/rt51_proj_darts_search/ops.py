"""A tiny differentiable search cell: a softmax over architecture logits mixes three candidate ops."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MixedOp(nn.Module):
    """Mixes a linear op, a gated op and a skip by `softmax(alpha)`; alpha lives outside the module
    so that the weights and the architecture can be stepped by different optimizers."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.lin = nn.Linear(width, width)
        self.gate = nn.Linear(width, width)

    def forward(self, x: torch.Tensor, alpha: torch.Tensor) -> torch.Tensor:
        w = F.softmax(alpha, dim=0)
        return w[0] * self.lin(x) + w[1] * torch.tanh(self.gate(x)) + w[2] * x


class SearchNet(nn.Module):
    def __init__(self, width: int = 8, classes: int = 3) -> None:
        super().__init__()
        self.stem = nn.Linear(4, width)
        self.cell = MixedOp(width)
        self.head = nn.Linear(width, classes)
        self.alpha = torch.zeros(3, requires_grad=True)

    def weights(self):
        return [p for n, p in self.named_parameters()]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(F.relu(self.cell(F.relu(self.stem(x)), self.alpha)))

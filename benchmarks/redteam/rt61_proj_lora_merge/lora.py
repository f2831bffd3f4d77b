"""Hand-written LoRA adapters: a frozen base weight plus a trainable low-rank update `B @ A * scale`.
For evaluation the update is merged into the base weight (one matmul per layer) and un-merged afterwards."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank: int, alpha: float):
        super().__init__()
        self.base = base
        self.base.requires_grad_(False)
        self.rank = rank
        self.scale = alpha / rank
        self.A = nn.Parameter(torch.randn(rank, base.in_features) / math.sqrt(base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, rank))
        self.merged = False

    def delta(self):
        return self.B @ self.A * self.scale

    def forward(self, x):
        if self.merged:
            return self.base(x)
        return F.linear(x, self.base.weight, self.base.bias) + (x @ self.A.t() @ self.B.t()) * self.scale

    @torch.no_grad()
    def merge(self):
        if not self.merged:
            self.base.weight += self.delta()
            self.merged = True

    @torch.no_grad()
    def unmerge(self):
        if self.merged:
            self.base.weight -= self.delta()
            self.merged = False


def adapt(model: nn.Sequential, rank: int, alpha: float) -> list:
    adapters = []
    for i, layer in enumerate(model):
        if isinstance(layer, nn.Linear):
            model[i] = LoRALinear(layer, rank, alpha)
            adapters.append(model[i])
    return adapters


def lora_parameters(adapters):
    return [p for a in adapters for p in (a.A, a.B)]

"""A feature normaliser whose running statistics follow GRAD MODE rather than `self.training`: the author
treats 'autograd is on' as 'this pass may adapt'. (Written this way so that frozen-eval passes under
no_grad never touch the statistics.)"""
import torch
import torch.nn as nn


class AdaptiveNorm(nn.Module):
    def __init__(self, dim, momentum=0.2):
        super().__init__()
        self.momentum = momentum
        self.register_buffer('mean', torch.zeros(dim))
        self.register_buffer('updates', torch.zeros((), dtype=torch.long))

    def forward(self, x):
        if torch.is_grad_enabled():
            with torch.no_grad():
                self.mean.mul_(1 - self.momentum).add_(self.momentum * x.mean(0))
                self.updates += 1
        return x - self.mean

"""A small quantisation-aware MLP whose middle block runs under activation checkpointing (the block
has dropout and counts its forward runs: a recomputation in backward runs it again)."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

from ops import STERound


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.drop = nn.Dropout(0.2)
        self.runs = 0

    def forward(self, x):
        self.runs += 1
        return self.drop(torch.relu(self.lin(x)))


class QNet(nn.Module):
    def __init__(self, d_in, d, n_cls, use_ckpt=True):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.block = Block(d)
        self.out = nn.Linear(d, n_cls)
        self.use_ckpt = use_ckpt

    def forward(self, x):
        h = STERound.apply(self.inp(x), 8.0)
        if self.use_ckpt and self.training and torch.is_grad_enabled():
            h = checkpoint(self.block, h, use_reentrant=False)
        else:
            h = self.block(h)
        return self.out(h)

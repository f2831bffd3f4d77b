"""A residual MLP whose blocks can run under gradient checkpointing (dropout inside each block)."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, d, p=0.2):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return x + self.drop(torch.relu(self.fc(x)))


class Net(nn.Module):
    def __init__(self, d_in, d, n_out, depth=3, use_checkpoint=False):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(depth))
        self.head = nn.Linear(d, n_out)
        self.use_checkpoint = use_checkpoint

    def backbone(self):
        return [self.inp, *self.blocks]

    def forward(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = checkpoint(blk, h, use_reentrant=False) if self.use_checkpoint and self.training else blk(h)
        return self.head(h)

"""A simulator whose force head (a submodule) differentiates a learned energy inside its forward."""
import torch
import torch.nn as nn


class ForceHead(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.energy = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, pos):
        if not pos.requires_grad:
            pos = pos.clone().requires_grad_(True)
        e = self.energy(pos).sum()
        return -torch.autograd.grad(e, pos, create_graph=self.training)[0]


class Simulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = ForceHead()

    def forward(self, pos, dt=0.1):
        return pos + dt * self.head(pos)

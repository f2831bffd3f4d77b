"""A small machine-learned force field: the network predicts an energy per configuration and the
forces are its negative gradient with respect to the positions (as SchNet / NequIP-style models do)."""
import torch
import torch.nn as nn


class EnergyNet(nn.Module):
    def __init__(self, n_atoms, hidden=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_atoms * 3, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, pos):
        if not pos.requires_grad:
            pos = pos.clone().requires_grad_(True)
        energy = self.body(pos.flatten(1)).squeeze(-1)
        forces = -torch.autograd.grad(energy.sum(), pos, create_graph=self.training)[0]
        return energy, forces

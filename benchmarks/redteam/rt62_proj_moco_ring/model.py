import copy

import torch
import torch.nn as nn


def make_encoder(d_in, emb):
    return nn.Sequential(nn.Linear(d_in, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, emb))


class MomentumPair(nn.Module):
    def __init__(self, d_in, emb, m):
        super().__init__()
        self.q = make_encoder(d_in, emb)
        self.k = copy.deepcopy(self.q)
        for p in self.k.parameters():
            p.requires_grad = False
        self.m = m

    @torch.no_grad()
    def momentum_step(self):
        for pq, pk in zip(self.q.parameters(), self.k.parameters()):
            pk.data = pk.data * self.m + pq.data * (1.0 - self.m)

    def keys(self, x):
        """Keys with the key encoder's BN on the shuffled batch (the 'shuffle BN' trick, single device)."""
        order = torch.randperm(x.size(0), device=x.device)
        back = torch.argsort(order)
        with torch.no_grad():
            k = self.k(x[order])
        return nn.functional.normalize(k[back], dim=1)

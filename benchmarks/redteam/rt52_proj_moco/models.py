"""A small MoCo: a query encoder, a momentum key encoder and a queue of past keys kept in buffers."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, d_out))

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


class MoCo(nn.Module):
    def __init__(self, d_in, d_out=8, queue=32, momentum=0.9, tau=0.2):
        super().__init__()
        self.q_enc = Encoder(d_in, d_out)
        self.k_enc = copy.deepcopy(self.q_enc)
        for p in self.k_enc.parameters():
            p.requires_grad_(False)
        self.m, self.tau = momentum, tau
        self.register_buffer('queue', F.normalize(torch.randn(queue, d_out), dim=1))
        self.register_buffer('ptr', torch.zeros((), dtype=torch.long))
        self.register_buffer('updates', torch.zeros((), dtype=torch.int32))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.q_enc.parameters(), self.k_enc.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)
        self.updates += 1

    @torch.no_grad()
    def _enqueue(self, k):
        n = k.shape[0]
        i = int(self.ptr)
        self.queue[i:i + n] = k
        self.ptr.fill_((i + n) % self.queue.shape[0])

    def forward(self, x1, x2):
        q = self.q_enc(x1)
        with torch.no_grad():
            self._momentum_update()
            k = self.k_enc(x2)
        pos = (q * k).sum(1, keepdim=True)
        neg = q @ self.queue.clone().t()
        logits = torch.cat([pos, neg], 1) / self.tau
        self._enqueue(k)
        return logits

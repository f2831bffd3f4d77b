"""A tiny attention LM with a learnable prefix whose keys/values are computed by prefill() and kept on the module."""
import math

import torch
import torch.nn as nn

V, D, P = 8, 16, 3


class PrefixLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.prefix = nn.Parameter(torch.randn(P, D) * 0.1)
        self.emb = nn.Embedding(V, D)
        self.kv = nn.Linear(D, 2 * D)
        self.q = nn.Linear(D, D)
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(D, V)
        self.k = None
        self.v = None

    def prefill(self, batch):
        k, v = self.kv(self.drop(self.prefix)).chunk(2, -1)
        self.k = k.expand(batch, -1, -1)
        self.v = v.expand(batch, -1, -1)

    def forward(self, idx):
        x = self.emb(idx)
        att = (self.q(x) @ self.k.transpose(1, 2) / math.sqrt(D)).softmax(-1)
        return self.head(x + att @ self.v)

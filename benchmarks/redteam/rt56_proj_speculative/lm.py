"""A causal attention LM that keeps its key/value cache on the module between calls."""
import math

import torch
import torch.nn as nn

V, TMAX = 10, 40


class CachedLM(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.d = d
        self.tok = nn.Embedding(V, d)
        self.pos = nn.Embedding(TMAX, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.head = nn.Linear(d, V)
        self.k_cache = None
        self.v_cache = None

    def reset_cache(self):
        self.k_cache = None
        self.v_cache = None

    def cache_len(self):
        return 0 if self.k_cache is None else self.k_cache.shape[1]

    def truncate(self, n):
        self.k_cache = self.k_cache[:, :n]
        self.v_cache = self.v_cache[:, :n]

    def forward(self, idx, use_cache=False):
        start = self.cache_len() if use_cache else 0
        t = idx.shape[1]
        pos = torch.arange(start, start + t, device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        q, k, v = self.qkv(x).chunk(3, -1)
        if use_cache and self.k_cache is not None:
            k = torch.cat([self.k_cache, k], 1)
            v = torch.cat([self.v_cache, v], 1)
        if use_cache:
            self.k_cache, self.v_cache = k, v
        total = k.shape[1]
        mask = torch.ones(t, total, dtype=torch.bool, device=idx.device).triu(total - t + 1)
        att = (q @ k.transpose(1, 2) / math.sqrt(self.d)).masked_fill(mask, float('-inf'))
        x = x + att.softmax(-1) @ v
        x = x + self.mlp(x)
        return self.head(x)

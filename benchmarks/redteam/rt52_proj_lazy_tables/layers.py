"""Attention with lazily built tables: a causal mask and a sinusoidal position table cached on the
module, keyed by length, device and dtype; per-head scales read from a config dict at every forward."""
import math

import torch
import torch.nn as nn


class PositionTable(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.d = d
        self._cache = {}

    def forward(self, x):
        T = x.shape[1]
        key = (T, x.device, x.dtype)
        if key not in self._cache:
            pos = torch.arange(T).to(x).unsqueeze(1)
            freq = torch.exp(torch.arange(0, self.d, 2).to(x) * (-math.log(100.0) / self.d))
            table = torch.zeros(T, self.d).to(x)
            table[:, 0::2] = torch.sin(pos * freq)
            table[:, 1::2] = torch.cos(pos * freq)
            self._cache[key] = table
        return x + self._cache[key]


class CausalAttention(nn.Module):
    def __init__(self, d, heads, cfg):
        super().__init__()
        self.h, self.cfg = heads, cfg
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mask = None

    def causal(self, T, device):
        if self.mask is None or self.mask.shape[0] < T or self.mask.device != device:
            self.mask = torch.triu(torch.ones(T, T), diagonal=1).bool().to(device)
        return self.mask[:T, :T]

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        scale = torch.tensor(self.cfg['head_scale'], device=x.device).view(1, self.h, 1, 1)
        s = (q @ k.transpose(-1, -2)) * scale / math.sqrt(D // self.h)
        s = s.masked_fill(self.causal(T, x.device), float('-inf'))
        out = torch.softmax(s, -1) @ v
        return self.proj(out.transpose(1, 2).reshape(B, T, D))


class TinyLM(nn.Module):
    def __init__(self, vocab, d, heads, cfg):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = PositionTable(d)
        self.attn = CausalAttention(d, heads, cfg)
        self.drop = nn.Dropout(cfg['dropout'])
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.pos(self.emb(ids))
        h = h + self.drop(self.attn(h))
        return self.head(h)

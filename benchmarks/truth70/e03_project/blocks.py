"""A causal self-attention block whose mask is rebuilt from nested Python lists in every forward."""
import torch
import torch.nn as nn


class CausalBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x):
        t = x.shape[1]
        mask = torch.tensor([[0.0 if j <= i else float("-inf") for j in range(t)] for i in range(t)])
        h = self.n1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.ff(self.n2(x))

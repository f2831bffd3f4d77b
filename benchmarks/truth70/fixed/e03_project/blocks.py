"""Twin of e03's block: the causal mask is built once per length with tensor ops and cached as a buffer."""
import torch
import torch.nn as nn


class CausalBlock(nn.Module):
    def __init__(self, d, heads, max_len=256):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        full = torch.triu(torch.full((max_len, max_len), float("-inf")), diagonal=1)
        self.register_buffer("causal", full, persistent=False)

    def forward(self, x):
        t = x.shape[1]
        mask = self.causal[:t, :t]
        h = self.n1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.ff(self.n2(x))

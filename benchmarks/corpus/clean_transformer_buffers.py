# corpus: runnable
"""A tiny causal transformer: mask and position table registered once as buffers."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
vocab, d_model, block = 32, 32, 16


class CausalSelfAttention(nn.Module):
    def __init__(self, d, heads, block_size):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.register_buffer("mask", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        pe = torch.zeros(block, d_model)
        pos = torch.arange(block).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe)
        self.ln = nn.LayerNorm(d_model)
        self.attn = CausalSelfAttention(d_model, 4, block)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, idx):
        x = self.tok(idx) + self.pe[: idx.size(1)]
        x = x + self.attn(self.ln(x))
        return self.head(x)


model = TinyGPT().to(device)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
text = torch.randint(0, vocab, (2000,), device=device)
for it in range(40):
    ix = torch.randint(0, len(text) - block - 1, (8,), device=device)
    xb = torch.stack([text[i : i + block] for i in ix])  # paef: expect elementwise-loop; ok list-to-tensor; ok host-sync
    yb = torch.stack([text[i + 1 : i + 1 + block] for i in ix])  # paef: expect elementwise-loop; ok list-to-tensor; ok host-sync
    loss = F.cross_entropy(model(xb).view(-1, vocab), yb.view(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(f"iter {it} loss {loss.item():.4f}")

# corpus: runnable
"""Attention block that rebuilds its causal mask and position ids in every forward call."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
T, D, V = 12, 24, 30


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Embedding(T, D)
        self.qkv = nn.Linear(D, 3 * D)
        self.head = nn.Linear(D, V)

    def forward(self, idx):
        B, L = idx.shape
        positions = torch.arange(L).unsqueeze(0).to(idx.device)  # paef: expect cpu-then-move; ok redundant-tensor
        x = self.tok(idx) + self.pos(positions)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        mask = torch.triu(torch.ones(L, L), diagonal=1).bool().to(idx.device)  # paef: expect redundant-tensor; ok cpu-then-move
        att = (q @ k.transpose(1, 2)) / math.sqrt(D)
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        return self.head(att @ v)


model = Block().to(device)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
data = torch.randint(0, V, (64, T + 1), device=device)
for step in range(30):
    xb, yb = data[:, :-1], data[:, 1:]
    loss = F.cross_entropy(model(xb).reshape(-1, V), yb.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")

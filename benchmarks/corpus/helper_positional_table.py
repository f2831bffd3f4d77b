# corpus: runnable
"""A sinusoidal position table rebuilt by a helper on every forward pass."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def sinusoid_table(length, dim, device):
    position = torch.arange(length, dtype=torch.float, device=device).unsqueeze(1)  # paef: expect redundant-tensor
    div = torch.exp(torch.arange(0, dim, 2, device=device).float() * (-math.log(10000.0) / dim))  # paef: expect redundant-tensor
    table = torch.zeros(length, dim, device=device)  # paef: ok redundant-tensor
    table[:, 0::2] = torch.sin(position * div)
    table[:, 1::2] = torch.cos(position * div)
    return table


class Encoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.dim = dim
        self.emb = nn.Embedding(vocab, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 2, 2 * dim, dropout=0.0, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.emb(tokens) * math.sqrt(self.dim) + sinusoid_table(tokens.size(1), self.dim, tokens.device)
        return self.out(self.layer(x))


model = Encoder(25, 16).to(device)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
src = torch.randint(0, 25, (32, 10), device=device)
for step in range(20):
    logits = model(src)
    loss = F.cross_entropy(logits.view(-1, 25), src.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")

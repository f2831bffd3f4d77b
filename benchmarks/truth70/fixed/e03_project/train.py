"""Next-token training of a two-block causal model on random sequences (blocks in blocks.py)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from blocks import CausalBlock

torch.manual_seed(0)
V, T, D = 64, 192, 16
data = torch.randint(0, V, (64, T + 1))
model = nn.Sequential(nn.Embedding(V, D), CausalBlock(D, 2), CausalBlock(D, 2), nn.Linear(D, V))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for epoch in range(2):
    for s in range(0, len(data), 4):
        seq = data[s:s + 4]
        logits = model(seq[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, V), seq[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

# corpus: runnable
"""A collate function that rebuilds a constant vocabulary weight tensor for every batch."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
VOCAB = 30
FREQ = [1 + (i * 7) % 5 for i in range(VOCAB)]
samples = [[random.randrange(VOCAB) for _ in range(6)] for _ in range(160)]


def collate(batch):
    tokens = torch.tensor(batch)
    weights = 1.0 / torch.tensor(FREQ, dtype=torch.float)  # paef: expect redundant-tensor
    return tokens, weights


loader = DataLoader(samples, batch_size=16, shuffle=True, collate_fn=collate, pin_memory=True)
emb = nn.Embedding(VOCAB, 8).to(device)
out = nn.Linear(8, VOCAB).to(device)
opt = torch.optim.Adam(list(emb.parameters()) + list(out.parameters()), lr=1e-2)
for epoch in range(2):
    for tokens, weights in loader:
        tokens, weights = tokens.to(device, non_blocking=True), weights.to(device, non_blocking=True)
        logits = out(emb(tokens[:, :-1]))
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1), weight=weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

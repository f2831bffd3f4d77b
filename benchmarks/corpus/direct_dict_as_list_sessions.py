# corpus: runnable
"""NISER-style training reading a dict of Python lists to build every batch."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
n_items, L = 50, 5

train = {"sessions": [], "targets": [], "lengths": []}
for _ in range(300):
    n = random.randint(1, L)
    s = [random.randrange(1, n_items) for _ in range(n)]
    train["sessions"].append(s + [0] * (L - n))
    train["targets"].append(random.randrange(1, n_items))
    train["lengths"].append(n)

emb = nn.Embedding(n_items, 16, padding_idx=0).to(device)
opt = torch.optim.Adam(emb.parameters(), lr=0.02)
order = list(range(300))
for epoch in range(3):
    random.shuffle(order)
    for b in range(0, 300, 60):
        idx = order[b : b + 60]
        items = torch.tensor([train["sessions"][i] for i in idx], device=device)  # paef: expect dict-as-list
        target = torch.tensor([train["targets"][i] for i in idx]).to(device)  # paef: expect dict-as-list; ok cpu-then-move
        lens = torch.tensor([train["lengths"][i] for i in idx], dtype=torch.float, device=device)  # paef: expect dict-as-list
        sess = emb(items).sum(1) / lens.unsqueeze(1)
        loss = F.cross_entropy(sess @ emb.weight.t(), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

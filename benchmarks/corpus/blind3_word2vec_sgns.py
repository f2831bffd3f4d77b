# corpus: runnable
"""Skip-gram with negative sampling on a toy corpus: vocabulary from a Counter, (center,
context) pairs in Python lists, a unigram^0.75 noise distribution, cosine nearest neighbours."""
import random
from collections import Counter

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

text = ("the king rules the land the queen rules the land a man walks a woman walks "
        "the king and the queen walk the land the man and the woman rule ") * 20
tokens = text.split()
counts = Counter(tokens)
itos = sorted(counts)
stoi = {w: i for i, w in enumerate(itos)}
ids = [stoi[w] for w in tokens]

window = 2
centers, contexts = [], []
for i, c in enumerate(ids):
    for j in range(max(0, i - window), min(len(ids), i + window + 1)):
        if j != i:
            centers.append(c)
            contexts.append(ids[j])

freq = np.array([counts[w] for w in itos], dtype=np.float64) ** 0.75
noise_dist = torch.tensor(freq / freq.sum(), dtype=torch.float)


class SGNS(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.inp = nn.Embedding(vocab, dim)
        self.out = nn.Embedding(vocab, dim)
        nn.init.uniform_(self.inp.weight, -0.5 / dim, 0.5 / dim)
        nn.init.zeros_(self.out.weight)

    def forward(self, c, o, neg):
        v = self.inp(c)
        pos = (v * self.out(o)).sum(-1)
        negs = torch.bmm(self.out(neg), v.unsqueeze(2)).squeeze(2)
        return -(F.logsigmoid(pos) + F.logsigmoid(-negs).sum(1)).mean()


model = SGNS(len(itos), 16).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
batch_size, K = 128, 5
order = list(range(len(centers)))
for epoch in range(3):
    random.shuffle(order)
    total = 0.0
    for b in range(0, len(order), batch_size):
        idx = order[b:b + batch_size]
        c = torch.tensor([centers[i] for i in idx], dtype=torch.long).to(device)  # paef: expect list-to-tensor; ok cpu-then-move
        o = torch.tensor([contexts[i] for i in idx], dtype=torch.long).to(device)  # paef: expect list-to-tensor; ok cpu-then-move
        neg = torch.multinomial(noise_dist, len(idx) * K, replacement=True).view(len(idx), K).to(device)  # paef: ok cpu-then-move
        loss = model(c, o, neg)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)  # paef: expect host-sync
    print(f"epoch {epoch} loss {total / len(order):.4f}")

with torch.no_grad():
    emb = F.normalize(model.inp.weight, dim=1)
    sims = emb @ emb[stoi["king"]]
    best = sims.topk(4).indices.tolist()
print("nearest to king:", [itos[i] for i in best])

# corpus: runnable
"""node2vec: biased second-order random walks (p, q) over an adjacency dict of neighbour
lists, walks turned into (center, context) pairs with a window, skip-gram with negative
sampling from the unigram^0.75 distribution; node embeddings are checked with a logistic
probe on community labels at the end."""
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
N_NODES, DIM, WALK_LEN, WINDOW, N_NEG = 80, 16, 10, 3, 5


def make_graph():
    comm = [i % 4 for i in range(N_NODES)]
    adj = {i: [] for i in range(N_NODES)}
    for i in range(N_NODES):
        for j in range(i + 1, N_NODES):
            if random.random() < (0.2 if comm[i] == comm[j] else 0.01):
                adj[i].append(j)
                adj[j].append(i)
    return adj, comm


def node2vec_walk(adj, start, length, p=1.0, q=0.5):
    walk = [start]
    while len(walk) < length:
        cur = walk[-1]
        nbrs = adj[cur]
        if not nbrs:
            break
        if len(walk) == 1:
            walk.append(random.choice(nbrs))
            continue
        prev = walk[-2]
        weights = [1 / p if n == prev else (1.0 if n in adj[prev] else 1 / q) for n in nbrs]
        walk.append(random.choices(nbrs, weights=weights)[0])
    return walk


class SkipGram(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.center = nn.Embedding(n, dim)
        self.context = nn.Embedding(n, dim)
        nn.init.uniform_(self.center.weight, -0.5 / dim, 0.5 / dim)
        nn.init.zeros_(self.context.weight)

    def forward(self, c, pos, neg):
        vc = self.center(c)
        pos_score = F.logsigmoid((vc * self.context(pos)).sum(-1))
        neg_score = F.logsigmoid(-(self.context(neg) @ vc.unsqueeze(-1)).squeeze(-1)).sum(-1)
        return -(pos_score + neg_score).mean()


adj, comm = make_graph()
model = SkipGram(N_NODES, DIM).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(4):
    walks = [node2vec_walk(adj, n, WALK_LEN) for n in range(N_NODES) for _ in range(2)]  # paef: refuse cpu-function
    pairs = [(w[i], w[j]) for w in walks for i in range(len(w)) for j in range(max(0, i - WINDOW), min(len(w), i + WINDOW + 1)) if i != j]
    counts = Counter(n for w in walks for n in w)
    freq = np.array([counts[i] for i in range(N_NODES)], dtype=np.float64)
    noise = torch.tensor(freq**0.75 / (freq**0.75).sum(), dtype=torch.float, device=device)
    pairs_t = torch.tensor(pairs, device=device)
    perm = torch.randperm(len(pairs_t), device=device)
    total = 0.0
    for i in range(0, len(perm), 256):
        batch = pairs_t[perm[i : i + 256]]
        neg = torch.multinomial(noise, batch.shape[0] * N_NEG, replacement=True).view(-1, N_NEG)
        loss = model(batch[:, 0], batch[:, 1], neg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()  # paef: expect host-sync
    print(f"epoch {epoch} pairs {len(pairs)} loss {total / (len(perm) // 256 + 1):.4f}")

emb = model.center.weight.detach()
y = torch.tensor(comm, device=device)
probe = nn.Linear(DIM, 4).to(device)
opt = torch.optim.Adam(probe.parameters(), lr=0.05)
for _ in range(100):
    loss = F.cross_entropy(probe(emb), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"probe acc {(probe(emb).argmax(1) == y).float().mean().item():.3f}")

# corpus: runnable
"""Matrix factorisation with BPR loss: interactions kept as a dict of lists, negatives sampled per batch, Recall@K per user."""
import random

import numpy as np
import torch
import torch.nn as nn

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n_users, n_items, dim, K = 40, 60, 16, 5

user_items = {u: sorted(random.sample(range(n_items), 8)) for u in range(n_users)}
test_items = {u: user_items[u][-2:] for u in range(n_users)}
train_items = {u: user_items[u][:-2] for u in range(n_users)}
pairs = [(u, i) for u, items in train_items.items() for i in items]


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.U = nn.Embedding(n_users, dim)
        self.I = nn.Embedding(n_items, dim)
        nn.init.normal_(self.U.weight, std=0.1)
        nn.init.normal_(self.I.weight, std=0.1)

    def forward(self, u, i, j):
        pu = self.U(u)
        return (pu * self.I(i)).sum(-1), (pu * self.I(j)).sum(-1)


def sample_negative(u):
    while True:
        j = random.randrange(n_items)
        if j not in train_items[u]:
            return j


model = MF().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
batch_size = 64
for epoch in range(5):
    random.shuffle(pairs)
    total = 0.0
    for b in range(0, len(pairs), batch_size):
        chunk = pairs[b : b + batch_size]
        users = torch.tensor([u for u, _ in chunk], device=device)  # paef: ok dict-as-list; ok list-to-tensor
        pos = torch.tensor([i for _, i in chunk], device=device)  # paef: ok dict-as-list; ok list-to-tensor
        neg = torch.tensor([sample_negative(u) for u, _ in chunk], device=device)  # paef: ok list-to-tensor
        x_ui, x_uj = model(users, pos, neg)
        loss = -torch.log(torch.sigmoid(x_ui - x_uj) + 1e-10).mean() + 1e-4 * model.U(users).norm().pow(2)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(chunk)  # paef: expect host-sync
    model.eval()
    hits = 0
    with torch.no_grad():
        scores = model.U.weight @ model.I.weight.T
        for u in range(n_users):  # paef: expect elementwise-loop
            mask = torch.tensor(train_items[u], device=device)  # paef: expect dict-as-list
            s = scores[u].clone()
            s[mask] = -1e9
            top = s.topk(K).indices.tolist()  # paef: ok host-sync
            hits += len(set(top) & set(test_items[u]))
    model.train()
    print(f"epoch {epoch} loss {total / len(pairs):.4f} recall@{K} {hits / (2 * n_users):.4f}")

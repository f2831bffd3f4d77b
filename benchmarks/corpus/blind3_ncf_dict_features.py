# corpus: runnable
"""Neural collaborative filtering (GMF + MLP towers) on implicit feedback, with side features
for users kept in a dict of lists (as read from a CSV), one sampled negative per positive, and
hit-ratio@5 evaluation with one held-out item per user."""
import random

import numpy as np
import torch
import torch.nn as nn

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

n_users, n_items = 60, 40
user_features = {u: [u % 3, (u // 3) % 4, u % 2] for u in range(n_users)}  # age bucket, region, gender
interactions = {u: sorted(random.sample(range(n_items), 6)) for u in range(n_users)}
test_item = {u: items[-1] for u, items in interactions.items()}
train_pairs = [(u, i) for u, items in interactions.items() for i in items[:-1]]


class NCF(nn.Module):
    def __init__(self, n_users, n_items, dim=8):
        super().__init__()
        self.u_gmf, self.i_gmf = nn.Embedding(n_users, dim), nn.Embedding(n_items, dim)
        self.u_mlp, self.i_mlp = nn.Embedding(n_users, dim), nn.Embedding(n_items, dim)
        self.feat = nn.ModuleList([nn.Embedding(4, 4) for _ in range(3)])
        self.mlp = nn.Sequential(nn.Linear(2 * dim + 12, 16), nn.ReLU(), nn.Linear(16, 8), nn.ReLU())
        self.out = nn.Linear(dim + 8, 1)

    def forward(self, u, i, feats):
        gmf = self.u_gmf(u) * self.i_gmf(i)
        f = torch.cat([emb(feats[:, k]) for k, emb in enumerate(self.feat)], dim=1)
        h = self.mlp(torch.cat([self.u_mlp(u), self.i_mlp(i), f], dim=1))
        return self.out(torch.cat([gmf, h], dim=1)).squeeze(1)


def sample_negatives(pairs):
    rows = []
    for u, i in pairs:
        j = random.randrange(n_items)
        while j in interactions[u]:
            j = random.randrange(n_items)
        rows.append((u, i, 1.0))
        rows.append((u, j, 0.0))
    random.shuffle(rows)
    return rows


model = NCF(n_users, n_items).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.BCEWithLogitsLoss()

for epoch in range(4):
    model.train()
    rows = sample_negatives(train_pairs)
    epoch_loss = torch.zeros((), device=device)
    for b in range(0, len(rows), 64):
        batch = rows[b:b + 64]
        users = torch.tensor([r[0] for r in batch], device=device)  # paef: ok list-to-tensor
        items = torch.tensor([r[1] for r in batch], device=device)  # paef: ok list-to-tensor
        labels = torch.tensor([r[2] for r in batch], device=device)  # paef: ok list-to-tensor
        feats = torch.tensor([user_features[r[0]] for r in batch], device=device)  # paef: expect dict-as-list
        loss = loss_fn(model(users, items, feats), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.detach() * len(batch)

    model.eval()
    hits = 0
    with torch.no_grad():
        all_items = torch.arange(n_items, device=device)
        for u in range(n_users):
            users = torch.full((n_items,), u, device=device)
            feats = torch.tensor([user_features[u]] * n_items, device=device)  # paef: ok dict-as-list
            scores = model(users, all_items, feats)
            seen = torch.tensor(interactions[u][:-1], device=device)  # paef: ok dict-as-list
            scores[seen] = -1e9
            top = scores.topk(5).indices
            hits += int((top == test_item[u]).any())  # paef: ok host-sync
    print(f"epoch {epoch} loss {epoch_loss.item() / len(rows):.4f} HR@5 {hits / n_users:.3f}")

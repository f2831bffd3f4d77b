# corpus: runnable
"""Two-tower retrieval with in-batch negatives: item tags kept in a dict of fixed-length
lists (from a JSON catalogue), a temperature-scaled softmax over the batch, recall@10."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
n_users, n_items, n_tags = 50, 80, 12

item_tags = {i: [random.randrange(n_tags) for _ in range(3)] for i in range(n_items)}
user_pref = {u: random.randrange(n_tags) for u in range(n_users)}
pairs = []
for u in range(n_users):
    liked = [i for i in range(n_items) if user_pref[u] in item_tags[i]]
    pairs += [(u, i) for i in random.sample(liked, min(4, len(liked)))]
random.shuffle(pairs)
user_ids = torch.tensor([p[0] for p in pairs])
item_ids = torch.tensor([p[1] for p in pairs])


class ItemTower(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.item = nn.Embedding(n_items, dim)
        self.tag = nn.EmbeddingBag(n_tags, dim, mode="mean")
        self.proj = nn.Linear(2 * dim, dim)

    def forward(self, items, tags):
        return F.normalize(self.proj(torch.cat([self.item(items), self.tag(tags)], 1)), dim=-1)


class UserTower(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, users):
        return F.normalize(self.mlp(self.user(users)), dim=-1)


user_tower, item_tower = UserTower().to(device), ItemTower().to(device)
opt = torch.optim.Adam(list(user_tower.parameters()) + list(item_tower.parameters()), lr=1e-2)
temperature, bs = 0.1, 32

for epoch in range(6):
    perm = torch.randperm(len(pairs))
    epoch_loss = 0.0
    for b in range(0, len(perm), bs):
        idx = perm[b:b + bs]
        users = user_ids[idx].to(device)
        items = item_ids[idx]
        tags = torch.tensor([item_tags[i] for i in items.tolist()], device=device)  # paef: expect dict-as-list
        items = items.to(device)
        logits = user_tower(users) @ item_tower(items, tags).t() / temperature
        labels = torch.arange(len(idx), device=device)  # paef: ok redundant-tensor
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()  # paef: expect host-sync
    print(f"epoch {epoch} loss {epoch_loss / ((len(perm) + bs - 1) // bs):.4f}")

with torch.no_grad():
    all_items = torch.arange(n_items, device=device)
    all_tags = torch.tensor([item_tags[i] for i in range(n_items)], device=device)
    item_emb = item_tower(all_items, all_tags)
    user_emb = user_tower(torch.arange(n_users, device=device))
    top = (user_emb @ item_emb.t()).topk(10, dim=1).indices.cpu()
hits = sum(int(user_pref[u] in item_tags[i]) for u in range(n_users) for i in top[u].tolist())
print(f"tag precision@10 {hits / (10 * n_users):.3f}")

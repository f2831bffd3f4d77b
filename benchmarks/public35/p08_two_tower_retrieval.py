"""Two-tower retrieval with in-batch and sampled negatives, in the style of public recsys repos."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

np.random.seed(0)
torch.manual_seed(0)

N_USERS, N_ITEMS, DIM = 60, 120, 16


class InteractionDataset(Dataset):
    def __init__(self, pairs):
        self.users = pairs[:, 0]
        self.items = pairs[:, 1]

    def __len__(self):
        return len(self.users)

    def __getitem__(self, idx):
        return torch.tensor(self.users[idx]), torch.tensor(self.items[idx])


class Tower(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.emb = nn.Embedding(n, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return F.normalize(self.mlp(self.emb(ids)), dim=-1)


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_tower = Tower(N_USERS, DIM)
        self.item_tower = Tower(N_ITEMS, DIM)
        self.temperature = 0.1

    def forward(self, users, items, neg_items):
        u = self.user_tower(users)
        i = self.item_tower(items)
        n = self.item_tower(neg_items)
        in_batch = u @ i.t() / self.temperature
        sampled = torch.einsum("bd,bkd->bk", u, n) / self.temperature
        logits = torch.cat([in_batch, sampled], dim=1)
        labels = torch.arange(users.size(0), device=users.device)
        return F.cross_entropy(logits, labels)


def make_pairs():
    rng = np.random.RandomState(0)
    users = rng.randint(0, N_USERS, 800)
    items = (users * 2 + rng.randint(0, 6, 800)) % N_ITEMS
    return np.stack([users, items], axis=1)


def recall_at_k(model, truth, device, k=10):
    model.eval()
    with torch.no_grad():
        user_emb = model.user_tower(torch.arange(N_USERS, device=device))
        item_emb = model.item_tower(torch.arange(N_ITEMS, device=device))
    hits, total = 0, 0
    for u in range(N_USERS):
        if u not in truth:
            continue
        scores = user_emb[u] @ item_emb.t()
        topk = scores.topk(k).indices.tolist()
        hits += len(set(topk) & truth[u])
        total += min(k, len(truth[u]))
    return hits / max(total, 1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    pairs = make_pairs()
    train_pairs, test_pairs = pairs[:640], pairs[640:]
    truth = {}
    for u, i in test_pairs:
        truth.setdefault(int(u), set()).add(int(i))
    loader = DataLoader(InteractionDataset(train_pairs), batch_size=32, shuffle=True, drop_last=True)
    model = TwoTower().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    num_neg = 8
    for epoch in range(3):
        model.train()
        epoch_loss = 0.0
        for users, items in loader:
            users, items = users.to(device), items.to(device)
            neg_items = torch.randint(0, N_ITEMS, (users.size(0), num_neg)).to(device)
            loss = model(users, items, neg_items)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        rec = recall_at_k(model, truth, device)
        print(f"epoch {epoch} loss {epoch_loss / len(loader):.4f} recall@10 {rec:.4f}")
    checksum = sum(p.detach().double().sum().item() for p in model.parameters())
    print(f"checksum {checksum:.6f}")


if __name__ == "__main__":
    main()

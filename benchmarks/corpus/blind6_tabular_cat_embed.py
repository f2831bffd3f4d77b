# corpus: runnable
"""Tabular binary classification with learned embeddings for categorical columns (the
"entity embeddings" recipe): the raw table is a dict of column lists, categories are mapped
to ids by per-column vocabularies, numeric columns are standardised, and a hand-written focal
loss handles the class imbalance. Validation AUC by ranks at the end of each epoch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

CAT_COLS = ["city", "device", "plan"]
NUM_COLS = ["age", "visits"]
N_ROWS = 1200


def make_table(n):
    rng = np.random.RandomState(1)
    table = {
        "city": [f"c{rng.randint(0, 12)}" for _ in range(n)],
        "device": [rng.choice(["ios", "android", "web"]) for _ in range(n)],
        "plan": [rng.choice(["free", "pro", "team", "ent"]) for _ in range(n)],
        "age": list(rng.normal(35, 10, n)),
        "visits": list(rng.poisson(4, n).astype(float)),
    }
    score = np.array([int(c[1:]) % 3 for c in table["city"]]) + (np.array(table["visits"]) > 5) * 2
    table["label"] = list((score + rng.randn(n) > 3.2).astype(int))
    return table


def build_vocab(values):
    return {v: i for i, v in enumerate(sorted(set(values)))}


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, alpha=0.25):
        super().__init__()
        self.gamma, self.alpha = gamma, alpha

    def forward(self, logits, target):
        p = torch.sigmoid(logits)
        ce = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
        p_t = p * target + (1 - p) * (1 - target)
        alpha_t = self.alpha * target + (1 - self.alpha) * (1 - target)
        return (alpha_t * (1 - p_t) ** self.gamma * ce).mean()


class EmbeddingMLP(nn.Module):
    def __init__(self, cardinalities, n_num, dim=8):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(c, min(dim, (c + 1) // 2)) for c in cardinalities])
        emb_out = sum(e.embedding_dim for e in self.embs)
        self.mlp = nn.Sequential(nn.Linear(emb_out + n_num, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 1))

    def forward(self, x_cat, x_num):
        parts = [emb(x_cat[:, i]) for i, emb in enumerate(self.embs)]
        return self.mlp(torch.cat(parts + [x_num], dim=1)).squeeze(1)


def rank_auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


table = make_table(N_ROWS)
vocabs = {c: build_vocab(table[c]) for c in CAT_COLS}
mu = {c: np.mean(table[c]) for c in NUM_COLS}
sd = {c: np.std(table[c]) for c in NUM_COLS}
idx = np.random.permutation(N_ROWS)
train_idx, val_idx = idx[:960], idx[960:]

model = EmbeddingMLP([len(vocabs[c]) for c in CAT_COLS], len(NUM_COLS)).to(device)
criterion = FocalLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3, weight_decay=1e-4)
BATCH = 64

for epoch in range(6):
    model.train()
    perm = np.random.permutation(train_idx)
    running = 0.0
    for start in range(0, len(perm), BATCH):
        rows = perm[start : start + BATCH]
        x_cat = torch.tensor([[vocabs[c][table[c][r]] for c in CAT_COLS] for r in rows], device=device)  # paef: expect dict-as-list
        x_num = torch.tensor([[(table[c][r] - mu[c]) / sd[c] for c in NUM_COLS] for r in rows], dtype=torch.float32, device=device)  # paef: expect dict-as-list
        y = torch.tensor([table["label"][r] for r in rows], dtype=torch.float32, device=device)  # paef: expect dict-as-list
        loss = criterion(model(x_cat, x_num), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * len(rows)  # paef: expect host-sync
    model.eval()
    with torch.no_grad():
        x_cat = torch.tensor([[vocabs[c][table[c][r]] for c in CAT_COLS] for r in val_idx], device=device)  # paef: ok dict-as-list; ok redundant-tensor
        x_num = torch.tensor([[(table[c][r] - mu[c]) / sd[c] for c in NUM_COLS] for r in val_idx], dtype=torch.float32, device=device)  # paef: ok dict-as-list; ok redundant-tensor
        scores = torch.sigmoid(model(x_cat, x_num)).cpu().numpy()
    labels = np.array([table["label"][r] for r in val_idx])  # paef: ok cpu-function
    print("epoch %d loss %.4f val auc %.3f" % (epoch, running / len(train_idx), rank_auc(scores, labels)))

# corpus: runnable
"""Tabular classifier with one embedding table per categorical column (entity embeddings) and
batch norm on the numeric columns. Clean: the columns are encoded and stacked into tensors once
before training, the per-column vocabularies are plain host dicts read only while encoding, and
the epoch metrics are read once per epoch."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N = 1500
raw = {
    "city": np.random.choice(["ams", "ber", "lis", "osl", "rom"], N),
    "device": np.random.choice(["ios", "android", "web"], N),
    "plan": np.random.choice(["free", "pro", "team", "ent"], N),
    "age": np.random.randint(18, 70, N).astype(np.float32),
    "visits": np.random.poisson(5, N).astype(np.float32),
}
CAT, NUM = ["city", "device", "plan"], ["age", "visits"]
y = ((raw["plan"] != "free") & (raw["visits"] > 4)).astype(np.int64)
vocabs = {c: {v: i for i, v in enumerate(sorted(set(raw[c])))} for c in CAT}
cat_codes = torch.tensor(np.stack([[vocabs[c][v] for v in raw[c]] for c in CAT], 1))
num = np.stack([raw[c] for c in NUM], 1)
num = torch.tensor((num - num.mean(0)) / num.std(0), dtype=torch.float32)
cat_codes, num, target = cat_codes.to(device), num.to(device), torch.from_numpy(y).to(device)


class EntityNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.embs = nn.ModuleList(nn.Embedding(len(vocabs[c]), 4) for c in CAT)
        self.bn = nn.BatchNorm1d(len(NUM))
        self.mlp = nn.Sequential(nn.Linear(4 * len(CAT) + len(NUM), 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, codes, numeric):
        parts = [emb(codes[:, i]) for i, emb in enumerate(self.embs)]
        return self.mlp(torch.cat(parts + [self.bn(numeric)], 1))


model = EntityNet().to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(8):
    model.train()
    perm = torch.randperm(1200, device=device)
    total = torch.zeros((), device=device)
    for i in range(0, 1200, 100):
        idx = perm[i : i + 100]
        loss = F.cross_entropy(model(cat_codes[idx], num[idx]), target[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.detach() * len(idx)
    model.eval()
    with torch.no_grad():
        acc = (model(cat_codes[1200:], num[1200:]).argmax(1) == target[1200:]).float().mean()
    print(f"epoch {epoch} loss {total.item() / 1200:.4f} val acc {acc.item():.3f}")

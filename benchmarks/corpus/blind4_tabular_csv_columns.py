# corpus: runnable
"""Tabular classification from a CSV read with the csv module into a dict of columns (a
pandas-free "DataFrame"): categorical columns label-encoded, numeric columns standardised
once, a Dataset whose __getitem__ reads one row out of the column lists, an MLP with
embeddings for the categoricals, AUC-free accuracy per epoch."""
import csv
import io
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
CAT_COLS = ["city", "plan"]
NUM_COLS = ["age", "income", "visits"]


def fake_csv(n):
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["city", "plan", "age", "income", "visits", "churn"])
    for _ in range(n):
        city, plan = random.choice(["paris", "oslo", "rome", "lima"]), random.choice(["free", "pro"])
        age, income, visits = random.randint(18, 70), random.gauss(40, 12), random.randint(0, 30)
        churn = int(visits < 8 and plan == "free" or random.random() < 0.1)
        w.writerow([city, plan, age, f"{income:.1f}", visits, churn])
    return buf.getvalue()


def read_columns(text):
    cols = {}
    for row in csv.DictReader(io.StringIO(text)):
        for k, v in row.items():
            cols.setdefault(k, []).append(v)
    return cols


class ChurnDataset(Dataset):
    def __init__(self, cols, encoders, stats):
        self.cols = {c: [encoders[c][v] for v in cols[c]] for c in CAT_COLS}
        for c in NUM_COLS:
            mean, std = stats[c]
            self.cols[c] = [(float(v) - mean) / std for v in cols[c]]
        self.target = [int(v) for v in cols["churn"]]

    def __len__(self):
        return len(self.target)

    def __getitem__(self, i):
        cats = torch.tensor([self.cols[c][i] for c in CAT_COLS], dtype=torch.long)  # paef: expect dict-as-list
        nums = torch.tensor([self.cols[c][i] for c in NUM_COLS], dtype=torch.float32)  # paef: expect dict-as-list
        return cats, nums, torch.tensor(self.target[i], dtype=torch.float32)


class TabMLP(nn.Module):
    def __init__(self, cardinalities, n_num):
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(n, 4) for n in cardinalities])
        self.mlp = nn.Sequential(nn.Linear(4 * len(cardinalities) + n_num, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, cats, nums):
        e = [emb(cats[:, j]) for j, emb in enumerate(self.embs)]
        return self.mlp(torch.cat(e + [nums], 1)).squeeze(1)


train_cols, valid_cols = read_columns(fake_csv(600)), read_columns(fake_csv(200))
encoders = {c: {v: i for i, v in enumerate(sorted(set(train_cols[c])))} for c in CAT_COLS}
stats = {}
for c in NUM_COLS:
    vals = [float(v) for v in train_cols[c]]
    mean = sum(vals) / len(vals)
    stats[c] = (mean, (sum((v - mean) ** 2 for v in vals) / len(vals)) ** 0.5)
train_dl = DataLoader(ChurnDataset(train_cols, encoders, stats), batch_size=64, shuffle=True)  # paef: ok pageable-transfer; ok sync-dataloader
valid_dl = DataLoader(ChurnDataset(valid_cols, encoders, stats), batch_size=50)  # paef: ok pageable-transfer; ok sync-dataloader
model = TabMLP([len(encoders[c]) for c in CAT_COLS], len(NUM_COLS)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(5):
    model.train()
    for cats, nums, y in train_dl:
        cats, nums, y = cats.to(device), nums.to(device), y.to(device)
        loss = loss_fn(model(cats, nums), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for cats, nums, y in valid_dl:
            pred = model(cats.to(device), nums.to(device)) > 0
            correct += (pred.float().cpu() == y).sum().item()  # paef: ok host-sync
    print(f"epoch {epoch} last loss {loss.item():.4f} valid acc {correct / len(valid_dl.dataset):.3f}")

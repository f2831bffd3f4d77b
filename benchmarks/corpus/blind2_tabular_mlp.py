# corpus: runnable
"""Tabular MLP: pandas-like preprocessing in NumPy, standardisation redone every epoch, AUC written in NumPy."""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load_table(n, rng):
    age = rng.randint(18, 80, size=n).astype(np.float64)
    income = rng.lognormal(10, 0.5, size=n)
    city = rng.randint(0, 5, size=n)
    y = ((age / 80 + np.log(income) / 12 + (city == 2)) > 1.6).astype(np.float32)
    return {"age": age, "income": income, "city": city}, y


def featurize(cols):
    one_hot = np.eye(5)[cols["city"]]
    num = np.stack([cols["age"], np.log1p(cols["income"])], axis=1)
    return np.concatenate([num, one_hot], axis=1)


def standardize(x, mean, std):
    return (x - mean) / (std + 1e-8)


def roc_auc(y_true, scores):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = y_true == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


rng = np.random.RandomState(0)
cols, y = load_table(600, rng)
X = featurize(cols)
idx = rng.permutation(len(y))
tr, va = idx[:480], idx[480:]

model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.BCEWithLogitsLoss()
batch_size = 64

for epoch in range(4):
    mean, std = X[tr].mean(0), X[tr].std(0)  # paef: expect cpu-function
    X_tr = standardize(X[tr], mean, std)  # paef: expect cpu-function
    model.train()
    perm = np.random.permutation(len(tr))
    epoch_loss = torch.zeros((), device=device)
    for b in range(0, len(tr), batch_size):
        bi = perm[b : b + batch_size]
        xb = torch.tensor(X_tr[bi], dtype=torch.float32).to(device)  # paef: ok cpu-then-move; ok pageable-transfer
        yb = torch.tensor(y[tr][bi]).to(device)  # paef: ok cpu-then-move; ok pageable-transfer
        loss = loss_fn(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.detach() * len(bi)
    model.eval()
    with torch.no_grad():
        X_va = torch.tensor(standardize(X[va], mean, std), dtype=torch.float32, device=device)
        scores = torch.sigmoid(model(X_va)).squeeze(1).cpu().numpy()
    print(f"epoch {epoch} loss {epoch_loss.item() / len(tr):.4f} val auc {roc_auc(y[va], scores):.4f}")

# corpus: runnable
"""Factorization machine for CTR prediction over several categorical fields (as in torchfm):
one shared embedding table with per-field offsets, the O(kn) pairwise term, and AUC / log
loss after every epoch."""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
field_dims = [6, 4, 8, 3]

n = 3000
X = np.stack([np.random.randint(0, d, n) for d in field_dims], 1)
logit = 0.8 * (X[:, 0] == 2) - 0.6 * (X[:, 1] == 1) + 0.9 * ((X[:, 2] == 5) & (X[:, 3] == 0)) - 0.5
Y = (np.random.rand(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)


class FactorizationMachine(nn.Module):
    def __init__(self, field_dims, embed_dim=8):
        super().__init__()
        self.field_dims = field_dims
        self.embedding = nn.Embedding(sum(field_dims), embed_dim)
        self.linear = nn.Embedding(sum(field_dims), 1)
        self.bias = nn.Parameter(torch.zeros(1))
        nn.init.xavier_uniform_(self.embedding.weight)

    def forward(self, x):
        offsets = torch.tensor(np.array((0, *np.cumsum(self.field_dims)[:-1])), dtype=torch.long, device=x.device)  # paef: expect redundant-tensor
        x = x + offsets.unsqueeze(0)
        emb = self.embedding(x)
        square_of_sum = emb.sum(1) ** 2
        sum_of_square = (emb ** 2).sum(1)
        pair = 0.5 * (square_of_sum - sum_of_square).sum(1)
        return self.linear(x).sum((1, 2)) + self.bias + pair


def auc(y, p):
    order = np.argsort(p)
    ranks = np.empty(len(p))
    ranks[order] = np.arange(1, len(p) + 1)
    pos = y == 1
    return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


x_all = torch.from_numpy(X).long()
y_all = torch.from_numpy(Y)
train_idx, test_idx = np.arange(0, 2400), np.arange(2400, n)
model = FactorizationMachine(field_dims).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-6)
criterion = nn.BCEWithLogitsLoss()

for epoch in range(4):
    model.train()
    np.random.shuffle(train_idx)
    for b in range(0, len(train_idx), 256):
        idx = torch.from_numpy(train_idx[b:b + 256])
        x, y = x_all[idx].to(device), y_all[idx].to(device)
        loss = criterion(model(x), y)
        model.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        p = torch.sigmoid(model(x_all[test_idx].to(device))).cpu().numpy()
    y_test = Y[test_idx]
    logloss = -np.mean(y_test * np.log(p + 1e-7) + (1 - y_test) * np.log(1 - p + 1e-7))
    print(f"epoch {epoch} test AUC {auc(y_test, p):.4f} logloss {logloss:.4f}")

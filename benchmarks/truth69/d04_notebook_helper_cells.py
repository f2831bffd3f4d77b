import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(4096, 24) * 3 + 1
Y = (X[:, :4].sum(1) > 4).long()
# %%
def standardize(xb):
    rows = xb.tolist()
    cols = list(zip(*rows))
    means = [sum(c) / len(c) for c in cols]
    stds = [(sum((v - m) ** 2 for v in c) / len(c)) ** 0.5 + 1e-6 for c, m in zip(cols, means)]
    return torch.tensor([[(v - m) / s for v, m, s in zip(r, means, stds)] for r in rows])
# %%
model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
# %%
for epoch in range(3):
    perm = torch.randperm(len(X))
    for s in range(0, len(X), 128):
        idx = perm[s:s + 128]
        xb = standardize(X[idx])
        loss = F.cross_entropy(model(xb), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())

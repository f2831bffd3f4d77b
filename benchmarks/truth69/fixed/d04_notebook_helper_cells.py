import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(4096, 24) * 3 + 1
Y = (X[:, :4].sum(1) > 4).long()
# %%
def standardize(xb):
    return (xb - xb.mean(0)) / (xb.std(0, unbiased=False) + 1e-6)
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

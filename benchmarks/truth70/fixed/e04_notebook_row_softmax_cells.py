import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(4096, 24, 8)
Y = (X[:, :, 0].mean(1) > 0).long()
# %%
def row_softmax(scores):
    return torch.softmax(scores, dim=1)
# %%
class AttnPool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.score = nn.Linear(d, 1)
        self.out = nn.Linear(d, 2)

    def forward(self, x):
        w = row_softmax(self.score(x).squeeze(-1))
        return self.out((w.unsqueeze(-1) * x).sum(1))
# %%
model = AttnPool(8)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    perm = torch.randperm(len(X))
    for s in range(0, len(X), 128):
        idx = perm[s:s + 128]
        loss = F.cross_entropy(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())

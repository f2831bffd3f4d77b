"""A gated MLP whose forward applies its per-sample gate in a Python loop over the batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Gated(nn.Module):
    def __init__(self, d=64, h=128):
        super().__init__()
        self.inp = nn.Linear(d, h)
        self.gate = nn.Linear(d, 1)
        self.out = nn.Linear(h, 10)

    def forward(self, x):
        h = F.relu(self.inp(x))
        g = torch.sigmoid(self.gate(x))
        rows = []
        for i in range(x.shape[0]):
            rows.append(h[i] * g[i])
        return self.out(torch.stack(rows))


X, Y = torch.randn(20, 256, 64), torch.randint(0, 10, (20, 256))
model = Gated()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(2):
    for i in range(len(X)):
        loss = F.cross_entropy(model(X[i]), Y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
print("loss", loss.item())

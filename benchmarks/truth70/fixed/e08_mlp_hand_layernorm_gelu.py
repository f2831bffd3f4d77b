"""Twin of e08: `nn.LayerNorm` and `F.gelu(approximate="tanh")`."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WideMLP(nn.Module):
    def __init__(self, d_in, width, d_out):
        super().__init__()
        self.inp = nn.Linear(d_in, width)
        self.norm = nn.LayerNorm(width, eps=1e-5)
        self.out = nn.Linear(width, d_out)

    def forward(self, x):
        x = self.inp(x)
        h = F.gelu(self.norm(x), approximate="tanh")
        return self.out(h)


torch.manual_seed(0)
X = torch.randn(4096, 16)
Y = (X[:, 0] * X[:, 1] > 0).long()
model = WideMLP(16, 4096, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(2):
    for s in range(0, len(X), 256):
        loss = F.cross_entropy(model(X[s:s + 256]), Y[s:s + 256])
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

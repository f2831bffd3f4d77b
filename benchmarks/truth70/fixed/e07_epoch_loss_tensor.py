"""Twin of e07: the running total adds the detached loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(16384, 32)
Y = X @ torch.randn(32, 1) + 0.1 * torch.randn(16384, 1)
model = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(3):
    total = 0.0
    for s in range(0, len(X), 32):
        loss = F.mse_loss(model(X[s:s + 32]), Y[s:s + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total = total + loss.detach()
    print(f"epoch {epoch} loss {total.item() / (len(X) // 32):.4f}")

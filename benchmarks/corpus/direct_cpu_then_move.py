# corpus: runnable
"""Tensors created on the CPU and moved inside the step: noise, label smoothing targets, ones."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
n_cls = 6

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, n_cls)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
X = torch.randn(400, 10, device=device)
Y = torch.randint(0, n_cls, (400,), device=device)

for epoch in range(3):
    for i in range(0, 400, 50):
        xb, yb = X[i : i + 50], Y[i : i + 50]
        smooth = torch.full((yb.size(0), n_cls), 0.1 / (n_cls - 1)).to(device)  # paef: expect-fix cpu-then-move; refuse redundant-tensor
        smooth.scatter_(1, yb.unsqueeze(1), 0.9)
        weights = torch.ones(n_cls).to(device)  # paef: expect redundant-tensor; ok cpu-then-move
        loss = torch.sum(-smooth * F.log_softmax(model(xb), -1) * weights, dim=1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

"""Tiny logistic regression, 1000 very short steps over pre-built tensors sliced per batch, SGD
with Nesterov momentum, loss logged every 250 steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(8000, 16)
y = (X[:, 0] - X[:, 1] > 0).float()
model = nn.Linear(16, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
bs = 32
for step in range(1000):
    a = (step * bs) % len(X)
    logits = model(X[a:a + bs]).squeeze(1)
    loss = F.binary_cross_entropy_with_logits(logits, y[a:a + bs])
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if step % 250 == 0:
        print(step, loss.item())

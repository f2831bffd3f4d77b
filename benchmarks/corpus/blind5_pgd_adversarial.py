# corpus: runnable
"""Madry-style adversarial training with a PGD inner maximisation (random start, signed
gradient steps projected onto the L-inf ball), the model switched to eval mode while the
attack runs; clean and robust accuracy are measured on a test split, the robust one with the
same attack, which needs input gradients."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
EPS, ALPHA, STEPS = 0.3, 0.1, 4

X = torch.randn(640, 20)
Y = (X[:, :5].sum(1) > 0).long()
train_loader = DataLoader(TensorDataset(X[:512], Y[:512]), batch_size=64, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(TensorDataset(X[512:], Y[512:]), batch_size=64)  # paef: ok pageable-transfer
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


def pgd(model, x, y):
    delta = torch.empty_like(x).uniform_(-EPS, EPS).requires_grad_(True)
    for _ in range(STEPS):
        loss = F.cross_entropy(model(x + delta), y)
        (grad,) = torch.autograd.grad(loss, delta)
        delta = (delta + ALPHA * grad.sign()).clamp(-EPS, EPS).detach().requires_grad_(True)
    return (x + delta).detach()


for epoch in range(3):
    total = 0.0
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        model.eval()
        x_adv = pgd(model, x, y)
        model.train()
        loss = F.cross_entropy(model(x_adv), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += float(loss.detach())  # paef: expect host-sync
    print(f"epoch {epoch} adv loss {total / len(train_loader):.4f}")

model.eval()
clean = robust = 0
for x, y in test_loader:  # paef: refuse eval-without-no-grad
    x, y = x.to(device), y.to(device)
    with torch.no_grad():
        clean += (model(x).argmax(1) == y).sum().item()  # paef: ok host-sync
    x_adv = pgd(model, x, y)
    with torch.no_grad():
        robust += (model(x_adv).argmax(1) == y).sum().item()  # paef: ok host-sync
print(f"clean acc {clean / 128:.3f} robust acc {robust / 128:.3f}")

# corpus: runnable
"""Evaluation under @torch.no_grad(), metrics summed on the device and read once."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

X = torch.randn(300, 12)
Y = (X.sum(1) > 0).long()
train_loader = DataLoader(TensorDataset(X[:200], Y[:200]), batch_size=25, shuffle=True, pin_memory=True)
val_loader = DataLoader(TensorDataset(X[200:], Y[200:]), batch_size=50, pin_memory=True)
model = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = torch.zeros((), dtype=torch.long, device=device)
    loss_sum = torch.zeros((), device=device)
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        out = model(xb)
        loss_sum += F.cross_entropy(out, yb, reduction="sum")
        correct += (out.argmax(1) == yb).sum()
    model.train()
    n = len(loader.dataset)
    return loss_sum.item() / n, correct.item() / n


for epoch in range(3):
    for xb, yb in train_loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    val_loss, val_acc = evaluate(model, val_loader)
    print(f"epoch {epoch} val_loss {val_loss:.4f} val_acc {val_acc:.4f}")

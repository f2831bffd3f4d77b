# corpus: runnable
"""Validation inside the epoch loop that forgets torch.no_grad()."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

X, Y = torch.randn(240, 8), torch.randint(0, 3, (240,))
train_loader = DataLoader(TensorDataset(X[:180], Y[:180]), batch_size=30, shuffle=True, pin_memory=True)
valid_loader = DataLoader(TensorDataset(X[180:], Y[180:]), batch_size=30, pin_memory=True)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(3):
    model.train()
    for xb, yb in train_loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    val_loss = torch.zeros((), device=device)
    for xb, yb in valid_loader:  # paef: expect-fix eval-without-no-grad
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        val_loss += F.cross_entropy(model(xb), yb, reduction="sum")
    print(f"epoch {epoch} val {val_loss.item() / 60:.4f}")

"""Clean: train with a held-out split, evaluate under `torch.inference_mode()` each epoch with the
loss summed on the device, read it once per epoch, save a checkpoint when it improves and stop
after 3 epochs without improvement."""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(6144, 20)
Y = X @ torch.randn(20, 1) + 0.3 * torch.randn(6144, 1)
train = DataLoader(TensorDataset(X[:5120], Y[:5120]), batch_size=128, shuffle=True)
val = DataLoader(TensorDataset(X[5120:], Y[5120:]), batch_size=512)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
ckpt = os.path.join(tempfile.mkdtemp(), "best.pt")
best, patience = float("inf"), 0
for epoch in range(12):
    model.train()
    for xb, yb in train:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    total = torch.zeros(())
    with torch.inference_mode():
        for xb, yb in val:
            total += F.mse_loss(model(xb), yb, reduction="sum")
    val_loss = total.item() / 1024
    if val_loss < best - 1e-4:
        best, patience = val_loss, 0
        torch.save(model.state_dict(), ckpt)
    else:
        patience += 1
        if patience >= 3:
            break
print(f"best val loss {best:.4f} after {epoch + 1} epochs")

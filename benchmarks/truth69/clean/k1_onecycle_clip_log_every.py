"""Clean: a small CNN on synthetic images with `OneCycleLR` stepped per batch, gradient
clipping, and the loss logged every 20 steps (one `.item()` then)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(2048, 1, 16, 16)
Y = (X.mean(dim=(1, 2, 3)) > 0).long()
loader = DataLoader(TensorDataset(X, Y), batch_size=64, shuffle=True, drop_last=True)
model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(8 * 8 * 8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
epochs = 3
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=epochs * len(loader))
step = 0
for epoch in range(epochs):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=2.0)
        opt.step()
        sched.step()
        step += 1
        if step % 20 == 0:
            print(f"step {step} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.4f}")

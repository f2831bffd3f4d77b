"""Autoencoder with ReduceLROnPlateau on the validation loss and early stopping; validation under
inference_mode, one `.item()` per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(40, 256, 48)
Xv = torch.randn(1024, 48)
model = nn.Sequential(nn.Linear(48, 16), nn.SiLU(), nn.Linear(16, 48))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1)
best, bad = float("inf"), 0
for epoch in range(6):
    model.train()
    for xb in X:
        loss = F.mse_loss(model(xb), xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.inference_mode():
        val_loss = F.mse_loss(model(Xv), Xv).item()
    sched.step(val_loss)
    if val_loss < best - 1e-4:
        best, bad = val_loss, 0
    else:
        bad += 1
        if bad >= 3:
            break
    print(epoch, val_loss)

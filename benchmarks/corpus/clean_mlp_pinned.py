# corpus: runnable
"""Tabular regression: pinned loader, non-blocking copies, loss kept on the device."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

X = torch.randn(256, 8)
y = X @ torch.linspace(-1, 1, 8) + 0.1 * torch.randn(256)
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True, pin_memory=True)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.MSELoss()

for epoch in range(3):
    running = torch.zeros((), device=device)
    for xb, yb in loader:
        xb = xb.to(device, non_blocking=True)
        yb = yb.to(device, non_blocking=True)
        loss = loss_fn(model(xb).squeeze(-1), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        running += loss.detach()
    print(f"epoch {epoch} loss {running.item() / len(loader):.4f}")

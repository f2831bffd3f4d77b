# corpus: runnable
"""Loader keyword arguments that may carry pin_memory through a conditional update."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
loader_kwargs = {"batch_size": 20, "shuffle": True}
if device == "cuda":
    loader_kwargs.update({"pin_memory": True, "num_workers": 2})

loader = DataLoader(TensorDataset(torch.randn(100, 4), torch.randn(100, 1)), **loader_kwargs)  # paef: refuse pageable-transfer
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for xb, yb in loader:
        xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")

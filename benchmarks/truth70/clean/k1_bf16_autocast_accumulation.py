"""Clean: CPU training under `torch.autocast("cpu", dtype=torch.bfloat16)` with gradient
accumulation over 4 micro-batches (loss scaled by 1/4, one optimizer step and `zero_grad` per 4)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(8192, 32)
Y = (X[:, :3].sum(1) > 0).long()
loader = DataLoader(TensorDataset(X, Y), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.Linear(128, 2))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
ACCUM = 4
for epoch in range(2):
    opt.zero_grad(set_to_none=True)
    for step, (xb, yb) in enumerate(loader):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = F.cross_entropy(model(xb), yb) / ACCUM
        loss.backward()
        if (step + 1) % ACCUM == 0:
            opt.step()
            opt.zero_grad(set_to_none=True)
    print(f"epoch {epoch} last loss {loss.item() * ACCUM:.4f}")

# corpus: runnable
"""A small dataset moved to the device once and served from there by a DataLoader over a
TensorDataset of device tensors (no host copies per batch: pinning or worker processes
would be wrong here), feature dropout with a fresh keep-mask per step that is then edited
in place, and a stop as soon as the training loss falls below a tolerance."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
N, D = 1024, 24
X = torch.randn(N, D).to(device)
W = torch.randn(D, 3).to(device)
Y = (X @ W).argmax(1)
loader = DataLoader(TensorDataset(X[:896], Y[:896]), batch_size=64, shuffle=True)  # paef: refuse pageable-transfer; refuse sync-dataloader
model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
stopped_at = None
for epoch in range(10):
    for step, (xb, yb) in enumerate(loader):
        keep = torch.ones(D, dtype=torch.bool, device=device)  # paef: refuse redundant-tensor
        dropped = torch.randint(0, D, (3,), device=device)
        keep[dropped] = False
        loss = F.cross_entropy(model(xb * keep), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if loss.item() < 0.2:  # paef: ok host-sync
            stopped_at = (epoch, step)
            break
    if stopped_at:
        break
with torch.no_grad():
    acc = (model(X[896:]).argmax(1) == Y[896:]).float().mean().item()
print(f"stopped at {stopped_at} test acc {acc:.4f}")

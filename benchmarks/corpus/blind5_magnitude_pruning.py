# corpus: runnable
"""Gradual magnitude pruning during training: every few steps the sparsity target grows and
each layer's mask is recomputed from the current weight magnitudes (a quantile threshold);
between updates the masks are re-applied after every optimizer step. Sparsity and accuracy
are reported per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
X = torch.randn(800, 24)
Y = (X[:, :6].sum(1) > 0).long() + (X[:, 6:9].sum(1) > 1).long()
train_loader = DataLoader(TensorDataset(X[:640], Y[:640]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(TensorDataset(X[640:], Y[640:]), batch_size=160)  # paef: ok pageable-transfer
model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
prunable = [m.weight for m in model if isinstance(m, nn.Linear)]
masks = [torch.ones_like(w) for w in prunable]
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
FINAL_SPARSITY, total_steps, step = 0.8, 4 * len(train_loader), 0

for epoch in range(4):
    model.train()
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        if step % 5 == 0:
            target = FINAL_SPARSITY * min(1.0, step / (0.75 * total_steps))
            for i, w in enumerate(prunable):
                thr = torch.quantile(w.detach().abs().flatten(), target)
                masks[i] = (w.detach().abs() > thr).float()  # paef: refuse redundant-tensor
        with torch.no_grad():
            for w, m in zip(prunable, masks):
                w.mul_(m)
    zeros = sum((m == 0).sum().item() for m in masks)  # paef: ok host-sync
    model.eval()
    with torch.no_grad():
        correct = sum((model(x.to(device)).argmax(1) == y.to(device)).sum() for x, y in val_loader)
    print(f"epoch {epoch} loss {loss.item():.4f} sparsity {zeros / sum(m.numel() for m in masks):.3f} acc {correct.item() / 160:.3f}")

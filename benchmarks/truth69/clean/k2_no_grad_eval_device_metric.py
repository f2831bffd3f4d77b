"""Clean: train a small MLP, then evaluate each epoch under `torch.no_grad()` with the
correct count and the loss summed in tensors on the model's device; one `.item()` per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
Xtr, Xte = torch.randn(4096, 20), torch.randn(2048, 20)
w = torch.randn(20, 3)
Ytr, Yte = (Xtr @ w).argmax(1), (Xte @ w).argmax(1)
train = DataLoader(TensorDataset(Xtr, Ytr), batch_size=128, shuffle=True)
test = DataLoader(TensorDataset(Xte, Yte), batch_size=512)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for epoch in range(3):
    model.train()
    for xb, yb in train:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = torch.zeros((), device=device)
    total_loss = torch.zeros((), device=device)
    with torch.no_grad():
        for xb, yb in test:
            xb, yb = xb.to(device), yb.to(device)
            logits = model(xb)
            total_loss += F.cross_entropy(logits, yb, reduction="sum")
            correct += (logits.argmax(dim=1) == yb).sum()
    acc, avg = (correct / len(Xte)).item(), (total_loss / len(Xte)).item()
    print(f"epoch {epoch} acc {acc:.3f} loss {avg:.4f}")

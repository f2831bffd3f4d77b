# corpus: runnable
"""A careful image-classification script (mostly clean): pinned loaders when CUDA is present,
non-blocking copies, a decorated evaluation function, loss accumulated on the device,
checkpoint with optimizer state, resume, and patience-based early stopping."""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")

X = torch.randn(800, 1, 12, 12)
Y = (X[:, 0, :6].mean((1, 2)) > X[:, 0, 6:].mean((1, 2))).long()
train_loader = DataLoader(TensorDataset(X[:640], Y[:640]), batch_size=64, shuffle=True, pin_memory=use_cuda)
val_loader = DataLoader(TensorDataset(X[640:], Y[640:]), batch_size=160, pin_memory=use_cuda)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 3 * 3, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(torch.flatten(x, 1))


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    loss_sum = torch.zeros((), device=device)
    correct = torch.zeros((), dtype=torch.long, device=device)
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        out = model(x)
        loss_sum += F.cross_entropy(out, y, reduction="sum")
        correct += (out.argmax(1) == y).sum()
    n = len(loader.dataset)
    return loss_sum.item() / n, correct.item() / n


def train_one_epoch(model, loader, optimizer):
    model.train()
    total = torch.zeros((), device=device)
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.detach()
    return total.item() / len(loader)


ckpt_dir = tempfile.mkdtemp()
ckpt_path = os.path.join(ckpt_dir, "last.pt")
model = Net().to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
start_epoch, best_acc, patience, bad_epochs = 0, 0.0, 2, 0

for epoch in range(start_epoch, 3):
    train_loss = train_one_epoch(model, train_loader, optimizer)
    val_loss, val_acc = evaluate(model, val_loader)
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f} acc {val_acc:.3f}")
    torch.save({"epoch": epoch, "model": model.state_dict(), "optimizer": optimizer.state_dict(), "best_acc": best_acc}, ckpt_path)
    if val_acc > best_acc:
        best_acc, bad_epochs = val_acc, 0
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            break

ckpt = torch.load(ckpt_path, map_location=device)
resumed = Net().to(device)
resumed.load_state_dict(ckpt["model"])
optimizer2 = torch.optim.SGD(resumed.parameters(), lr=0.05, momentum=0.9)
optimizer2.load_state_dict(ckpt["optimizer"])
for epoch in range(ckpt["epoch"] + 1, ckpt["epoch"] + 3):
    train_loss = train_one_epoch(resumed, train_loader, optimizer2)
    val_loss, val_acc = evaluate(resumed, val_loader)
    print(f"resumed epoch {epoch} train {train_loss:.4f} acc {val_acc:.3f}")

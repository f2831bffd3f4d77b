# corpus: runnable
"""An evaluate() helper without torch.no_grad(), called after every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def evaluate(model, loader):
    model.eval()
    correct, total = 0, 0
    for x, y in loader:  # paef: expect-fix eval-without-no-grad
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        pred = model(x).argmax(dim=1)
        correct += (pred == y).sum().item()  # paef: ok host-sync
        total += y.numel()
    model.train()
    return correct / total


def train_epoch(model, loader, opt):
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.detach()


data = TensorDataset(torch.randn(200, 10), torch.randint(0, 4, (200,)))
train_loader = DataLoader(data, batch_size=20, shuffle=True, pin_memory=True)
test_loader = DataLoader(data, batch_size=50, pin_memory=True)
model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 4)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    last = train_epoch(model, train_loader, opt)
    print(f"epoch {epoch} loss {last.item():.4f} acc {evaluate(model, test_loader):.4f}")

# corpus: runnable
"""Stochastic weight averaging with torch.optim.swa_utils (AveragedModel, SWALR, update_bn
after training) next to a hand-written EMA of the weights with a warm-up decay, both
evaluated on a held-out split; a clean reference: every loss is accumulated detached on the
device and read once per epoch."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import SWALR, AveragedModel, update_bn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
pin = torch.cuda.is_available()
X = torch.randn(768, 10)
Y = ((X[:, 0] * X[:, 1] + X[:, 2]) > 0).long()
train_loader = DataLoader(TensorDataset(X[:640], Y[:640]), batch_size=64, shuffle=True, pin_memory=pin)
test_loader = DataLoader(TensorDataset(X[640:], Y[640:]), batch_size=128, pin_memory=pin)


class EMA:
    def __init__(self, model, decay=0.99):
        self.shadow = copy.deepcopy(model).eval()
        for p in self.shadow.parameters():
            p.requires_grad_(False)
        self.decay, self.updates = decay, 0

    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        d = min(self.decay, (1 + self.updates) / (10 + self.updates))
        for ema_p, p in zip(self.shadow.parameters(), model.parameters()):
            ema_p.mul_(d).add_(p.detach(), alpha=1 - d)
        for ema_b, b in zip(self.shadow.buffers(), model.buffers()):
            ema_b.copy_(b)


@torch.no_grad()
def evaluate(net):
    net.eval()
    correct = torch.zeros((), device=device)
    for x, y in test_loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        correct += (net(x).argmax(1) == y).sum()
    return correct.item() / len(test_loader.dataset)


model = nn.Sequential(nn.Linear(10, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=6)
swa_model = AveragedModel(model)
swa_scheduler = SWALR(optimizer, swa_lr=0.05)
ema = EMA(model)
swa_start = 4
for epoch in range(8):
    model.train()
    epoch_loss = torch.zeros((), device=device)
    for x, y in train_loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.update(model)
        epoch_loss += loss.detach()
    if epoch >= swa_start:
        swa_model.update_parameters(model)
        swa_scheduler.step()
    else:
        scheduler.step()
    print(f"epoch {epoch} loss {epoch_loss.item() / len(train_loader):.4f} acc {evaluate(model):.4f} ema {evaluate(ema.shadow):.4f}")
update_bn(train_loader, swa_model, device=device)
print(f"swa acc {evaluate(swa_model):.4f}")

# corpus: runnable
"""Image classifier with mixup/cutmix, an EMA copy of the weights updated under no_grad, and EMA evaluation."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

X = torch.randn(384, 3, 8, 8)
Y = (X[:, 0].mean((1, 2)) > X[:, 1].mean((1, 2))).long()
train_loader = DataLoader(TensorDataset(X[:320], Y[:320]), batch_size=32, shuffle=True, drop_last=True)  # paef: ok pageable-transfer
val_loader = DataLoader(TensorDataset(X[320:], Y[320:]), batch_size=64)  # paef: ok pageable-transfer


class ModelEMA:
    def __init__(self, model, decay=0.9):
        self.ema = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.ema.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for ema_p, p in zip(self.ema.parameters(), model.parameters()):
            ema_p.mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)
        for ema_b, b in zip(self.ema.buffers(), model.buffers()):
            ema_b.copy_(b)


def rand_bbox(h, w, lam):
    cut = np.sqrt(1.0 - lam)
    ch, cw = int(h * cut), int(w * cut)
    cy, cx = np.random.randint(h), np.random.randint(w)
    return np.clip(cy - ch // 2, 0, h), np.clip(cy + ch // 2, 0, h), np.clip(cx - cw // 2, 0, w), np.clip(cx + cw // 2, 0, w)


model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 2)).to(device)
ema = ModelEMA(model)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(3):
    model.train()
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        lam = np.random.beta(1.0, 1.0)
        index = torch.randperm(x.size(0)).to(device)  # paef: expect cpu-then-move; refuse cpu-then-move; refuse redundant-tensor
        if np.random.rand() < 0.5:
            x = lam * x + (1 - lam) * x[index]
        else:
            y1, y2, x1, x2 = rand_bbox(x.size(2), x.size(3), lam)
            x[:, :, y1:y2, x1:x2] = x[index, :, y1:y2, x1:x2]
            lam = 1 - ((y2 - y1) * (x2 - x1) / (x.size(2) * x.size(3)))
        out = model(x)
        loss = lam * F.cross_entropy(out, y) + (1 - lam) * F.cross_entropy(out, y[index])
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
    correct = torch.zeros(2, device=device)
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.to(device), y.to(device)
            correct[0] += (model(x).argmax(1) == y).sum()
            correct[1] += (ema.ema(x).argmax(1) == y).sum()
    acc = (correct / len(val_loader.dataset)).tolist()
    print(f"epoch {epoch} acc {acc[0]:.4f} ema acc {acc[1]:.4f}")

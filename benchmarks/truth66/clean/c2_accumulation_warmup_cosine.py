"""Gradient accumulation over 4 micro-batches from a DataLoader of preloaded tensors, gradient
clipping, and a warmup-then-cosine LambdaLR stepped once per optimizer step."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, series, width):
        self.x = series.unfold(0, width, 1)[:-1].contiguous()
        self.y = series[width:].clone()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def warmup_cosine(warmup, total):
    def factor(step):
        if step < warmup:
            return (step + 1) / warmup
        return 0.5 * (1.0 + math.cos(math.pi * (step - warmup) / max(1, total - warmup)))
    return factor


torch.manual_seed(0)
series = torch.sin(torch.linspace(0, 200, 6000)) + 0.1 * torch.randn(6000)
loader = DataLoader(Windows(series, 32), batch_size=32, shuffle=True, drop_last=True)
model = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
accum = 4
total_updates = 2 * len(loader) // accum
sched = torch.optim.lr_scheduler.LambdaLR(opt, warmup_cosine(10, total_updates))
running = torch.zeros(())
for epoch in range(2):
    for k, (xb, yb) in enumerate(loader):
        loss = F.mse_loss(model(xb).squeeze(1), yb) / accum
        loss.backward()
        running += loss.detach()
        if (k + 1) % accum == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            sched.step()
    print(f"epoch {epoch} mean loss {running.item() / (len(loader) / accum):.4f}")
    running.zero_()

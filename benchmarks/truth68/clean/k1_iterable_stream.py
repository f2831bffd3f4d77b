"""Clean: an IterableDataset that yields ready batches of tensors sliced from one tensor, a small
MLP with AdamW, gradient clipping and a cosine schedule, eval under inference_mode."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, IterableDataset

torch.manual_seed(0)
X, Y = torch.randn(8192, 32), torch.randint(0, 4, (8192,))


class Stream(IterableDataset):
    def __iter__(self):
        order = torch.randperm(len(X))
        for start in range(0, len(X), 256):
            idx = order[start:start + 256]
            yield X[idx], Y[idx]


loader = DataLoader(Stream(), batch_size=None)
model = nn.Sequential(nn.Linear(32, 128), nn.GELU(), nn.Linear(128, 4))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=64)
for epoch in range(2):
    model.train()
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
    model.eval()
    with torch.inference_mode():
        acc = (model(X).argmax(dim=1) == Y).float().mean()
    print(epoch, float(acc))

# corpus: runnable
"""Snapshot ensembles (cosine annealing with warm restarts, one snapshot per cycle) compared
with an exponential moving average of the weights kept by hand; the test accuracy of each
snapshot, of the averaged softmax of all snapshots, and of the EMA model are printed."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
CYCLES, EPOCHS_PER_CYCLE, LR_MAX, EMA_DECAY = 3, 3, 0.1, 0.99


class ModelEMA:
    def __init__(self, model, decay):
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


def cosine_lr(it, total):
    return 0.5 * LR_MAX * (1 + math.cos(math.pi * (it % total) / total))


def accuracy(logits, y):
    return (logits.argmax(1) == y).float().mean().item()


X = torch.randn(1000, 2)
Y = ((X[:, 0] ** 2 + X[:, 1] ** 2).sqrt() * 3).long().clamp(max=4)
train_loader = DataLoader(TensorDataset(X[:800], Y[:800]), batch_size=50, shuffle=True)  # paef: ok pageable-transfer
X_test, Y_test = X[800:].to(device), Y[800:].to(device)
model = nn.Sequential(nn.Linear(2, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 5)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=LR_MAX, momentum=0.9)
ema = ModelEMA(model, EMA_DECAY)
snapshots = []
iters_per_cycle = EPOCHS_PER_CYCLE * len(train_loader)
it = 0
for cycle in range(CYCLES):
    for epoch in range(EPOCHS_PER_CYCLE):
        model.train()
        for x, y in train_loader:
            for group in optimizer.param_groups:
                group["lr"] = cosine_lr(it, iters_per_cycle)
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.update(model)
            it += 1
    snapshots.append(copy.deepcopy(model.state_dict()))
    print(f"cycle {cycle} loss {loss.item():.4f}")

member = copy.deepcopy(model)
member.eval()
probs = []
with torch.no_grad():
    for k, state in enumerate(snapshots):
        member.load_state_dict(state)
        logits = member(X_test)
        probs.append(F.softmax(logits, dim=1))
        print(f"snapshot {k} acc {accuracy(logits, Y_test):.3f}")
    ensemble = torch.stack(probs).mean(0)
    print(f"ensemble acc {accuracy(ensemble, Y_test):.3f} ema acc {accuracy(ema.ema(X_test), Y_test):.3f}")

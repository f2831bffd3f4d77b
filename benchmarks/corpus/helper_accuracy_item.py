# corpus: runnable
"""Metrics helpers called every training step; one of them reads the value back to the host."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


def accuracy(logits, target):
    return (logits.argmax(dim=1) == target).float().mean().item()  # paef: expect host-sync


def top_k_hits(logits, target, k=3):
    return (logits.topk(k, dim=1).indices == target[:, None]).any(dim=1).sum()


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 8)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
X = torch.randn(256, 12, device=device)
Y = (X[:, :8].abs().argmax(1)).to(device)

for epoch in range(3):
    acc_meter, hits = AverageMeter(), torch.zeros((), dtype=torch.long, device=device)
    for i in range(0, 256, 32):
        logits = model(X[i : i + 32])
        loss = F.cross_entropy(logits, Y[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc_meter.update(accuracy(logits, Y[i : i + 32]), 32)  # paef: ok host-sync
        hits += top_k_hits(logits, Y[i : i + 32])
    print(f"epoch {epoch} acc {acc_meter.avg:.4f} top3 {hits.item() / 256:.4f}")

"""Scoring passes over a dataset. `score_pool` ranks the pool by per-sample loss (the caller keeps the
hardest and trains on them: the returned losses are the training objective); `evaluate` is a plain
evaluation that reports a mean loss and per-class recalls."""
import torch
import torch.nn.functional as F


def score_pool(model, pool, device):
    """Per-sample cross-entropy of every pool example, concatenated, in pool order."""
    model.eval()
    losses = []
    for x, y in pool:
        out = model(x.to(device))
        losses.append(F.cross_entropy(out, y.to(device), reduction='none'))
    model.train()
    return torch.cat(losses)


def evaluate(model, loader, device, classes):
    model.eval()
    total = 0.0
    n = 0
    per_class = {c: [] for c in range(classes)}
    for x, y in loader:
        out = model(x.to(device))
        total += F.cross_entropy(out, y.to(device), reduction='sum').item()
        n += len(y)
        hits = (out.argmax(1).cpu() == y).tolist()
        for label, hit in zip(y.tolist(), hits):
            per_class[label].append(hit)
    model.train()
    recalls = {c: (sum(v) / len(v) if v else float('nan')) for c, v in per_class.items()}
    return total / n, recalls

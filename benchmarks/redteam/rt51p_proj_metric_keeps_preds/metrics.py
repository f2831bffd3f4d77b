"""A hand-written AUROC metric: `update` keeps the batch scores and targets, `compute` ranks them all."""
import torch


class AUROC:
    def __init__(self):
        self.preds, self.targets = [], []

    def update(self, preds, target):
        self.preds.append(preds)
        self.targets.append(target)

    def compute(self):
        scores = torch.cat(self.preds)
        labels = torch.cat(self.targets)
        ranks = torch.empty_like(scores)
        ranks[scores.argsort()] = torch.arange(1, len(scores) + 1, dtype=scores.dtype, device=scores.device)
        n_pos = labels.sum()
        n_neg = len(labels) - n_pos
        return (ranks[labels == 1].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)

    def reset(self):
        self.preds, self.targets = [], []

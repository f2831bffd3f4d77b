import numpy as np
import torch


def batch_to(batch, device):
    return [t.to(device) for t in batch]


def masked_predictions(logits, target_skill, target):
    """Logit of the skill asked next, at the steps that have a next question."""
    picked = logits.gather(-1, target_skill.unsqueeze(-1)).squeeze(-1)
    mask = target >= 0
    return picked[mask], target[mask]


def auc_score(scores, labels):
    """Rank-based ROC AUC (Mann-Whitney U) of NumPy arrays."""
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


class RunningMean:
    def __init__(self):
        self.total, self.n = 0.0, 0

    def add(self, value, n=1):
        self.total += value * n
        self.n += n

    def mean(self):
        return self.total / max(self.n, 1)

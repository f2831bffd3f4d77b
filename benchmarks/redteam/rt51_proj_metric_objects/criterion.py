"""The training criterion: cross-entropy plus a weighted logit-norm penalty, returned as a LossOutput."""
import torch.nn.functional as F

from metrics import LossOutput


def criterion(logits, target, weight=0.01):
    return LossOutput(F.cross_entropy(logits, target), logits.pow(2).mean(), weight)

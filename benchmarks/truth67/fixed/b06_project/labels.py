"""Label helpers shared by the training scripts."""
import torch
import torch.nn.functional as F


def smooth_targets(y, n_classes, eps=0.1):
    onehot = F.one_hot(y, n_classes).float()
    soft = onehot * (1.0 - eps) + eps / n_classes
    return soft

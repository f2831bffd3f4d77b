"""Segmentation metrics, as the common U-Net repositories keep them in a utils module."""
import torch


def dice_coeff(pred, target, eps=1e-6):
    inter = (pred * target).sum()
    return ((2 * inter + eps) / (pred.sum() + target.sum() + eps)).item()  # paef: expect host-sync


def dice_coeff_tensor(pred, target, eps=1e-6):
    inter = (pred * target).sum()
    return (2 * inter + eps) / (pred.sum() + target.sum() + eps)


def to_numpy(t):
    return t.detach().cpu().numpy()


class AverageMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)

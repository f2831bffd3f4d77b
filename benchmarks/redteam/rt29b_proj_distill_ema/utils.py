"""Helpers shared by the training and evaluation code."""
import torch


def smooth_class_weights(weights, counts, momentum=0.9):
    """Blend the per-class weights towards the inverse frequency of this batch (in place)."""
    inv = 1.0 / (counts.float() + 1.0)
    weights.mul_(momentum).add_((1 - momentum) * inv / inv.mean())
    return weights


def ema_update(teacher, student, decay=0.9):
    with torch.no_grad():
        for t, s in zip(teacher.parameters(), student.parameters()):
            t.mul_(decay).add_(s, alpha=1 - decay)

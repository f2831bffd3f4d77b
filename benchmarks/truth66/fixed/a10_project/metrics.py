"""Metrics for the trainer, kept on the device."""
import torch


def batch_accuracy(logits, targets):
    return (logits.argmax(dim=1) == targets).float().mean()


def grad_norms(model):
    names = [name for name, p in model.named_parameters() if p.grad is not None]
    norms = torch.stack([p.grad.norm() for p in model.parameters() if p.grad is not None])
    return names, norms

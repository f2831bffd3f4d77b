"""Validation: mean loss and accuracy over a loader."""
import torch
import torch.nn.functional as F


def evaluate(model, loader, device):
    model.eval()
    total = 0.0
    correct = 0
    seen = 0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        logits = model(xb)
        total += F.cross_entropy(logits, yb, reduction="sum").item()
        correct += (logits.argmax(1) == yb).sum().item()
        seen += yb.numel()
    model.train()
    return total / seen, correct / seen

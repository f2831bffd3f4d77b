"""Validation loss of a regressor over a list of batches."""
import torch.nn.functional as F


def validate(model, batches):
    losses = []
    for xb, yb in batches:
        losses.append(F.l1_loss(model(xb), yb).item())
    return sum(losses) / len(losses)

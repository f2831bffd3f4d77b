"""Validation helper shared by the phase loop and the final report."""
import torch.nn.functional as F


def validate(model, xs, ys, device):
    model.eval()
    total = 0.0
    hits = 0
    for x, y in zip(xs, ys):
        x, y = x.to(device), y.to(device)
        out = model(x)
        total += F.mse_loss(out, y).item()
        hits += ((out - y).abs() < 0.5).sum().item()
    return total, hits

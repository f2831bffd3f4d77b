"""Evaluation with merged adapters, and a drift check of the base weights."""
import torch
import torch.nn.functional as F


def evaluate(model, adapters, x, y, batch=64):
    model.eval()
    for a in adapters:
        a.merge()
    losses = []
    correct = 0
    for i in range(0, x.shape[0], batch):
        out = model(x[i:i + batch])
        losses.append(F.cross_entropy(out, y[i:i + batch]).item())
        correct += int((out.argmax(1) == y[i:i + batch]).sum())
    for a in adapters:
        a.unmerge()
    model.train()
    return torch.tensor(losses).mean().item(), correct / x.shape[0]


def base_drift(adapters, originals):
    total = torch.zeros(())
    for a, w0 in zip(adapters, originals):
        total = total + (a.base.weight.detach().cpu().double() - w0.double()).abs().sum()
    return total.item()

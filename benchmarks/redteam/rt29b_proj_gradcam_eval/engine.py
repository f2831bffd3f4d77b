"""Epoch loops (the model is handed in by the driver)."""
import torch.nn.functional as F


def train_epoch(model, opt, loader, device):
    model.train()
    seen, total = 0, 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
        seen += len(y)
    return total / seen


def evaluate(model, loader, device):
    model.eval()
    correct, total, seen = 0, 0.0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        total += F.cross_entropy(logits, y, reduction="sum").item()
        correct += (logits.argmax(1) == y).sum().item()
        seen += len(y)
    return total / seen, correct / seen

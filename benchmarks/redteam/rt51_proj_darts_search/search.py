"""Validation helpers of the search: the validation loss (the architecture's objective: its value
is returned to the caller, who steps alpha on it) and the validation accuracy."""
import torch
import torch.nn.functional as F


def validation_loss(model, batches, device):
    """Mean cross-entropy over the validation batches, as a tensor."""
    model.eval()
    total = 0.0
    count = 0
    for x, y in batches:
        logits = model(x.to(device))
        total = total + F.cross_entropy(logits, y.to(device), reduction='sum')
        count += x.size(0)
    model.train()
    return total / count


def validation_accuracy(model, batches, device):
    model.eval()
    correct = 0
    seen = 0
    for x, y in batches:
        pred = model(x.to(device)).argmax(dim=1)
        correct += (pred == y.to(device)).sum().item()
        seen += y.numel()
    model.train()
    return correct / seen


def genotype(model):
    probs = F.softmax(model.alpha.detach(), dim=0)
    names = ['linear', 'gated', 'skip']
    return names[int(probs.argmax())], [round(p, 6) for p in probs.tolist()]

"""Training and evaluation epochs written with `from torch import ...` imports only: the module never
binds the name `torch`."""
from torch import nn, no_grad
from torch.nn import functional as F


def train_epoch(model, batches, opt, device):
    total = 0.0
    for x, y in batches:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total / len(batches)


def evaluate(model, batches, device):
    model.eval()
    total, hits = 0.0, 0
    for x, y in batches:
        out = model(x.to(device))
        total += F.cross_entropy(out, y.to(device), reduction='sum').item()
        hits += (out.argmax(1).cpu() == y).sum().item()
    model.train()
    return total, hits


def build(width):
    return nn.Sequential(nn.Linear(4, width), nn.ReLU(), nn.Linear(width, 3))


def predict(model, x):
    with no_grad():
        return model(x).argmax(1)

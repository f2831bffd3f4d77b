"""Full-batch objectives summed over a list of batches, and an accumulator object: the callers
back-propagate what these return (LBFGS closure, a plain full-batch step)."""
import torch.nn.functional as F


class Accumulator:
    def __init__(self):
        self.total = 0.0
        self.n = 0

    def add(self, loss):
        self.total += loss
        self.n += 1

    def mean(self):
        return self.total / self.n


def epoch_objective(model, batches, acc):
    for xb, yb in batches:
        acc.add(F.cross_entropy(model(xb), yb))
    return acc.mean()


def objective(model, batches):
    total = 0.0
    for xb, yb in batches:
        total += F.cross_entropy(model(xb), yb, reduction='sum')
    return total / sum(len(y) for _, y in batches)


def accuracy(model, batches):
    model.eval()
    correct = 0
    for xb, yb in batches:
        correct += (model(xb).argmax(1) == yb).sum().item()
    model.train()
    return correct / sum(len(y) for _, y in batches)

"""torchmetrics-like stateful metrics written by hand: `update` folds a batch in, `compute` hands back
the state, `reset` zeroes it in place so that the same buffers serve every epoch."""
import torch


class MeanMetric:
    def __init__(self):
        self.total = torch.zeros((), dtype=torch.float64)
        self.weight = torch.zeros((), dtype=torch.float64)

    def update(self, value, n=1):
        self.total += value.detach().double() * n
        self.weight += n

    def compute(self):
        return self.total / self.weight

    def sum(self):
        return self.total

    def reset(self):
        self.total.zero_()
        self.weight.zero_()


class ConfusionMatrix:
    def __init__(self, classes):
        self.classes = classes
        self.mat = torch.zeros(classes, classes, dtype=torch.long)

    def update(self, pred, target):
        idx = target.cpu() * self.classes + pred.cpu()
        self.mat += torch.bincount(idx, minlength=self.classes ** 2).view(self.classes, self.classes)

    def compute(self):
        return self.mat

    def reset(self):
        self.mat.zero_()


class LossOutput:
    """What the criterion returns: the weighted objective and its parts. `item()` reports the
    objective as a Python number the way a tensor would, `backward()` back-propagates it."""

    def __init__(self, main, aux, weight):
        self.main = main
        self.aux = aux
        self.weight = weight

    @property
    def value(self):
        return self.main + self.weight * self.aux

    def item(self):
        return round(self.main.item() + self.weight * self.aux.item(), 6)

    def backward(self):
        self.value.backward()

"""A torchmetrics-like accuracy that keeps its state across update() calls."""
import torch


class Accuracy:
    def __init__(self):
        self.reset()

    def reset(self):
        self.correct = torch.zeros((), dtype=torch.long)
        self.total = 0

    def update(self, preds, target):
        self.correct = self.correct + (preds == target).sum().cpu()
        self.total += target.numel()

    def compute(self):
        return self.correct.item() / max(self.total, 1)

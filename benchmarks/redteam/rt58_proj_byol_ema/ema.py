import copy

import torch


class EMA:
    """A Polyak-averaged copy of a module: parameters blended in place, buffers copied."""

    def __init__(self, module, decay):
        self.module = copy.deepcopy(module)
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, online):
        for pe, po in zip(self.module.parameters(), online.parameters()):
            pe.mul_(self.decay).add_(po.detach(), alpha=1 - self.decay)
        for be, bo in zip(self.module.buffers(), online.buffers()):
            be.copy_(bo)

    def __call__(self, x):
        return self.module(x)

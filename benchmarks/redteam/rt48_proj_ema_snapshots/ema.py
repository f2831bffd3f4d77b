"""Model averaging: a hand-written EMA (a deep copy updated in place every step) and snapshot helpers
used by the early-stopping logic (a cloned copy, and the plain state_dict, which aliases the weights)."""
import copy

import torch


class EMA:
    def __init__(self, model, decay):
        self.module = copy.deepcopy(model)
        self.decay = decay
        self.updates = 0
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        self.updates += 1
        d = min(self.decay, (1 + self.updates) / (10 + self.updates))
        for e, m in zip(self.module.state_dict().values(), model.state_dict().values()):
            if e.dtype.is_floating_point:
                e.mul_(d).add_(m.detach(), alpha=1 - d)


def cloned_state(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def live_state(model):
    return model.state_dict()

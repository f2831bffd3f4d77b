# corpus: runnable
# Red team 48 (not blind): a Lightning-like loop calls `module.training_step(batch)` on a module
# of a class it cannot see (a parameter); the step normalises the batch in place (`batch -= m`)
# and keeps it; a tensor built in the loop from constants and handed to it, and a NumPy table
# it is given, must stay rebuilt per step
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4803)
device = "cpu"


class LitModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(3, 1)
        self.seen = None

    def training_step(self, batch, table):
        batch -= batch.mean()
        table += 1.0
        self.seen = batch
        return self.net(batch).pow(2).mean()


def fit(module, steps):
    opt = torch.optim.SGD(module.parameters(), lr=0.01)
    table = np.zeros(3)
    log = []
    for step in range(steps):
        batch = torch.arange(6.0).reshape(2, 3)
        loss = module.training_step(batch, table)
        opt.zero_grad()
        loss.backward()
        opt.step()
        weights = np.exp(table)
        log.append((round(float(batch.sum()), 5), round(float(weights.sum()), 5)))
    return log


print("step", fit(LitModel(), 3))

# corpus: runnable
# Red team 48 (not blind): callbacks given to a training function as a list of objects of
# unknown class; `cb.on_start(weights)` keeps the array before the loop, `cb.on_step()` changes
# it in place in the loop, through the list's elements; NumPy work on the array must stay
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4805)
device = "cpu"


class Scaler:
    def on_start(self, w):
        self.w = w

    def on_step(self):
        np.multiply(self.w, 2.0, out=self.w)


def fit(model, callbacks, steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    weights = np.full(3, 0.5)
    for cb in callbacks:
        cb.on_start(weights)
    log = []
    for step in range(steps):
        x = torch.randn(4, 3)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        for cb in callbacks:
            cb.on_step()
        total = np.log(weights)
        log.append(round(float(total.sum()), 5))
    return log


print("callbacks", fit(nn.Linear(3, 1), [Scaler()], 3))

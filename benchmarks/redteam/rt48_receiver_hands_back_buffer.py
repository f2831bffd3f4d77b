# corpus: runnable
# Red team 48 (not blind): a method of an object of unknown class (a parameter of the training
# function) hands back its own buffer (`pool.buffer()` returning `self.buf`); the loop refills
# the pool (`pool.refill(step)` changing `self.buf` in place); NumPy work on the handed-back
# buffer and a tensor built from it must stay in the loop
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4802)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Pool:
    def __init__(self):
        self.buf = np.ones(4)

    def buffer(self):
        return self.buf

    def refill(self, v):
        self.buf[:] = v + 1.0


def train(pool, model, opt):
    buf = pool.buffer()
    log = []
    for step in range(4):
        x = torch.randn(8, 4, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        pool.refill(float(step))
        stats = np.sqrt(buf)
        log.append(round(float(stats.sum()), 5))
    return log


model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
print("buffer", train(Pool(), model, opt))

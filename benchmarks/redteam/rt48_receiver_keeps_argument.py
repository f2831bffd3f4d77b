# corpus: runnable
# Red team 48 (not blind: written by the helper fixing it, on the gap named in issue 8): the
# receiver of a method of a class the analysis cannot find (the object comes in as a function's
# parameter, or from a factory) keeps the array it is given before the loop, and a later method
# call in the loop changes that array in place; NumPy work on the array is not loop-invariant
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4801)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Tracker:
    def track(self, a):
        self.kept = a

    def step(self):
        self.kept *= 1.5


def make_tracker():
    return Tracker()


def train(tracker, model, opt):
    scales = np.arange(1.0, 4.0)
    tracker.track(scales)
    log = []
    for step in range(4):
        x = torch.randn(8, 3, device=device)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        tracker.step()
        logged = np.log1p(scales)
        log.append(round(float(logged.sum()), 5))
    return log


model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
print("kept", train(make_tracker(), model, opt))

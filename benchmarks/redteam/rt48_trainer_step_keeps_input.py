# corpus: runnable
# Red team 48 (not blind): `trainer.step(x)` of a trainer object of unknown class keeps the
# tensor it is given (`self.last = x`) and a later `trainer.decay()` changes the kept tensor in
# place; the tensor is rebuilt from constants each iteration before it is handed over, and a
# host round trip copies it: both must stay as they are
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4804)
device = "cpu"


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01)
        self.last = None

    def step(self, x):
        self.last = x
        loss = self.model(x).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return float(loss)

    def decay(self):
        self.last.mul_(0.5)


def run(trainer, steps):
    log = []
    for step in range(steps):
        x = torch.full((4, 2), 2.0)
        kept = torch.tensor(x.tolist())
        trainer.step(x)
        trainer.decay()
        log.append((round(float(x.sum()), 5), round(float(kept.sum()), 5)))
    return log


print("trainer", run(Trainer(nn.Linear(2, 1)), 3))

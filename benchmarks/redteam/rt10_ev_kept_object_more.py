# corpus: runnable
# Evaluation-looking loops that keep their losses on objects by other forms than an assignment
# to an attribute: `setattr(stats, "last", ...)`, a method of a program class adding to
# `self.total`, a dict attribute's `update`. Other code back-propagates what was kept.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
xs, ys = torch.randn(4, 2, 3), torch.randn(4, 2, 1)


class Stats:
    def __init__(self):
        self.last = None
        self.total = 0
        self.parts = {}

    def add(self, loss):
        self.total = self.total + loss

    def step(self, value):
        opt.zero_grad()
        value.backward()
        opt.step()
        return round(value.item(), 5)


stats = Stats()
model.eval()
for x, y in zip(xs, ys):
    setattr(stats, "last", nn.functional.mse_loss(model(x), y))
print("setattr", stats.step(stats.last))

for x, y in zip(xs, ys):
    stats.add(nn.functional.mse_loss(model(x), y))
print("method", stats.step(stats.total))

for i, (x, y) in enumerate(zip(xs, ys)):
    stats.parts.update({i: nn.functional.l1_loss(model(x), y)})
print("update", stats.step(sum(stats.parts.values())))

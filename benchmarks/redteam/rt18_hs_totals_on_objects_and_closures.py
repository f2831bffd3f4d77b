# corpus: runnable
# `.item()` totals kept where the loop's own scope is not the only reader: an attribute on
# `self` read by another method the loop calls, a closure that the loop calls to log the total,
# a dict entry, a total updated by `nonlocal` in a nested step function, a global read by a
# callback registered on the model.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Linear(3, 1)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(4)]
crit = nn.MSELoss()


class Trainer:
    def __init__(self):
        self.seen = 0.0
        self.log = []

    def report(self):
        self.log.append(f"{self.seen:.4f}")

    def run(self):
        for x, y in data:
            self.seen += crit(model(x), y).item()
            self.report()
        return self.log


print("A", Trainer().run())


def train():
    total = 0.0
    lines = []

    def note():
        lines.append(repr(total))

    for x, y in data:
        total += crit(model(x), y).item()
        note()
    return lines


print("B", train())


def outer():
    s = 0.0

    def step(x, y):
        nonlocal s
        s += crit(model(x), y).item()

    for x, y in data:
        step(x, y)
        print("C", repr(s))


outer()

gl = 0.0
seen = []
model.register_forward_hook(lambda m, i, o: seen.append(repr(gl)))
for x, y in data:
    gl += crit(model(x), y).item()
print("D", seen)

# corpus: runnable
# Device training loops whose `.item()` totals are read during the loop by code elsewhere: a
# method reading `self.seen`, a closure logging the total, a `nonlocal` total in a nested step
# function, a global read by a forward hook, a total read through `globals()`, a total kept in a
# one-element list.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
data = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(4)]
crit = nn.MSELoss()


def step(x, y):
    loss = crit(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


class Trainer:
    def __init__(self):
        self.seen = 0.0
        self.log = []

    def report(self):
        self.log.append(f"{self.seen:.4f}")

    def run(self):
        for x, y in data:
            loss = step(x, y)
            self.seen += loss.item()
            self.report()
        return self.log


print("A", Trainer().run())


def train():
    total = 0.0
    lines = []

    def note():
        lines.append(repr(total))

    for x, y in data:
        loss = step(x, y)
        total += loss.item()
        note()
    return lines


print("B", train())


def outer():
    s = 0.0

    def inner(x, y):
        nonlocal s
        loss = step(x, y)
        s += loss.item()

    for x, y in data:
        inner(x, y)
        print("C", repr(s))


outer()

gl = 0.0
seen = []
hook = model.register_forward_hook(lambda m, i, o: seen.append(repr(gl)))
for x, y in data:
    loss = step(x, y)
    gl += loss.item()
hook.remove()
print("D", seen)

gg = 0.0
for x, y in data:
    loss = step(x, y)
    gg += loss.item()
    print("E", repr(globals()["gg"]))

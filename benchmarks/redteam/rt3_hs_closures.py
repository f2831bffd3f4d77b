# corpus: runnable
# Running sums of `.item()` read by a closure / lambda / nonlocal helper / a logger method during the
# loop, kept in an attribute, formatted with `%` or `str.format`, or read after an early `break`.
import torch

torch.manual_seed(0)
data = [torch.randn(4) for _ in range(5)]

total = 0.0
show = lambda: print("running", total)
for x in data:
    total += x.sum().item()
    show()
print(round(total, 4))


def train():
    running = 0.0

    def log():
        print("log %.4f" % running, type(running).__name__)

    for x in data:
        running += x.abs().sum().item()
        log()
    return running


print(round(train(), 4))


class Meter:
    def __init__(self):
        self.sum = 0.0

    def report(self):
        return "{:.3f} {}".format(self.sum, type(self.sum).__name__)


m = Meter()
for x in data:
    m.sum += x.mean().item()
    print(m.report())

acc = 0
for i, x in enumerate(data):
    acc += (x > 0).sum().item()
    if i == 2:
        break
print(acc, type(acc).__name__)

hist = {}
tot = 0.0
for i, x in enumerate(data):
    tot += x.max().item()
    hist[i] = tot
print({k: type(v).__name__ for k, v in hist.items()})

tot2 = 0
for x in data:
    tot2 += x.numel()
    tot2 += (x > 0).sum().item()
print(tot2, type(tot2).__name__)

s = 0
for x in data:
    s = s + x.sum().item()
print(type(s).__name__, isinstance(s, float))

# corpus: runnable
# Accumulators changed in place by helpers defined outside the epoch loop: a closure reading the
# enclosing name, a function reading a module-level name, a method reading a global, a lambda.
# None of the changes is on a line of the loop; built once, the accumulators would carry over.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(8, 3)


def run_closure():
    acc = None

    def add(x):
        acc.add_(x)

    out = []
    for epoch in range(3):
        acc = torch.zeros(3)
        for x in xs:
            add(x)
        out.append(round(acc.sum().item(), 4))
    return out


print("closure", run_closure())

hist = None


def record(x):
    hist.mul_(0.9).add_(x)


epochs = []
for epoch in range(3):
    hist = torch.zeros(3)
    for x in xs:
        record(x)
    epochs.append(round(hist.sum().item(), 4))
print("global", epochs)


class Meter:
    def update(self, x):
        global peak
        torch.maximum(peak, x, out=peak)


meter = Meter()
peaks = []
for epoch in range(3):
    peak = torch.full((3,), -1.0)
    for x in xs[epoch * 2:epoch * 2 + 2]:
        meter.update(x)
    peaks.append(round(peak.sum().item(), 4))
print("method", peaks)

bump = lambda t: t.clamp_(max=0.5)
vals = []
for epoch in range(3):
    ceiling = torch.full((3,), 2.0)
    ceiling += xs[epoch]
    vals.append(round(ceiling.sum().item(), 4))
    bump(ceiling)
    vals.append(round(ceiling.sum().item(), 4))
print("lambda", vals)

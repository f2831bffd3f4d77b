# corpus: runnable
# Wave 2: the script's globals changed from a local module without `__main__`: a callback of the
# script registered once with the module (run by the module at every step), and the script's
# `globals()` handed to the module once, before the loop.
import torch

import events

torch.manual_seed(0)
torch.set_num_threads(1)


def record(x):
    hist.add_(x)


events.on_step(record)
events.bind(globals())
xs = torch.randn(3, 3)
rows = []
for epoch in range(3):
    hist = torch.zeros(3)
    steps = torch.zeros(1)
    for x in xs:
        events.step(x)
    rows.append((round(hist.sum().item(), 4), steps.item()))
print("callbacks", rows)

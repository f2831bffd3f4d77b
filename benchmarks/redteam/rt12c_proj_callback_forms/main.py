# corpus: runnable
# Third probe, against the "callbacks handed out" refusal: a callback registered by a decorator
# (`@events.on_step`), a bound method handed to the module, an instance whose `__call__` changes
# a global.
import torch

import events

torch.manual_seed(0)
torch.set_num_threads(1)


@events.on_step
def record(x):
    hist.add_(x)


class Meter:
    def seen_one(self, x):
        steps.add_(1)


class Peak:
    def __call__(self, x):
        peak.copy_(torch.maximum(peak, x))


events.on_step(Meter().seen_one)
events.on_step(Peak())
xs = torch.randn(3, 3)
rows = []
for epoch in range(3):
    hist = torch.zeros(3)
    steps = torch.zeros(1)
    peak = torch.zeros(3)
    for x in xs:
        events.step(x)
    rows.append((round(hist.sum().item(), 4), steps.item(), round(peak.sum().item(), 4)))
print("callback forms", rows)

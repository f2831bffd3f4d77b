# corpus: runnable
# Red team 25, wave 1: losses summed over micro-batches and back-propagated once after the inner
# loop - through a tuple unpacking, an attribute of a state object, a list of epoch objectives,
# a dict entry, a helper method: detaching the running sum would cut (or break) the gradient
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(252)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
chunks = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]
crit = nn.MSELoss()
log = []


class State:
    pass


class Accumulator:
    def __init__(self):
        self.parts = []

    def finish(self, value):
        self.parts = [value]
        return torch.stack(self.parts).sum()


state = State()
acc = Accumulator()
for epoch in range(2):
    total = 0
    for xb, yb in chunks:
        out = model(xb)
        loss = crit(out, yb)
        total += loss
    objective, count = total, len(chunks)
    opt.zero_grad()
    (objective / count).backward()
    opt.step()

    running = 0.0
    for xb, yb in chunks:
        running = running + crit(model(xb), yb)
    state.objective = running
    opt.zero_grad()
    state.objective.backward()
    opt.step()

    summed = 0
    for xb, yb in chunks:
        summed += crit(model(xb), yb)
    bag = {}
    bag["loss"] = summed
    opt.zero_grad()
    bag["loss"].backward()
    opt.step()

    pooled = 0
    for xb, yb in chunks:
        pooled += crit(model(xb), yb) * 0.5
    opt.zero_grad()
    acc.finish(pooled).backward()
    opt.step()
    log.append(round(model.weight.detach().sum().item(), 5))
print("later backward", log)

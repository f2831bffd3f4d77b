# corpus: runnable
# Summed losses (`total += loss`) that are back-propagated after the loop through paths other
# than a name: a dataclass field, a dict entry read by a property, `__getattr__`, a generator
# that yields the running sum, a closure over a `nonlocal` sum, `functools.partial` of
# `Tensor.backward`.
import functools
from dataclasses import dataclass

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(3, 1).to(device)
batches = [(torch.randn(4, 3), torch.randn(4, 1)) for _ in range(3)]


def grads():
    out = [round(v, 5) for v in model.weight.grad.flatten().tolist()]
    model.zero_grad()
    return out


@dataclass
class Stats:
    loss_sum: float = 0.0


stats = Stats()
for xb, yb in batches:
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    stats.loss_sum += loss
stats.loss_sum.backward()
print("dataclass", grads())


class Logs:
    def __init__(self):
        self.values = {"loss": 0.0}

    @property
    def objective(self):
        return self.values["loss"]


logs = Logs()
for xb, yb in batches:
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    logs.values["loss"] += loss
logs.objective.backward()
print("property", grads())


def running_losses():
    total = 0.0
    for xb, yb in batches:
        loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
        total += loss
        yield total


for partial_sum in running_losses():
    last = partial_sum
last.backward()
print("generator", grads())


def make_trainer():
    total = 0.0

    def step(xb, yb):
        nonlocal total
        loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
        total = total + loss

    def finish():
        total.backward()

    return step, finish


step, finish = make_trainer()
for xb, yb in batches:
    step(xb, yb)
finish()
print("closure", grads())

total = 0.0
for xb, yb in batches:
    loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
    total += loss
backward = functools.partial(torch.Tensor.backward, total)
backward()
print("partial", grads())

acc = 0.0
for xb, yb in batches:
    acc += nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
parts = [acc]
parts[0].backward()
print("list", grads())

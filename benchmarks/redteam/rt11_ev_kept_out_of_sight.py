# corpus: runnable
# Evaluation outputs kept where a name search does not see them: a functools.partial bound to
# the output, a dataclass field filled by a default factory list, a nonlocal in a closure, a
# setattr with a computed name. Each is back-propagated after the evaluation loop.
import functools
from dataclasses import dataclass, field

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(4, 2)
xs = torch.randn(4, 3, 4)


def anchor_loss(pred, target):
    return (pred - target).pow(2).mean()


model.eval()
penalties = []
for x in xs:
    out = model(x)
    penalties.append(functools.partial(anchor_loss, out))
model.train()
total = sum(p(torch.zeros(3, 2)) for p in penalties)
total.backward()
print("partial", round(total.item(), 4), round(model.weight.grad.abs().sum().item(), 4))
model.zero_grad()


@dataclass
class Store:
    outs: list = field(default_factory=list)


store = Store()
model.eval()
for x in xs:
    o = model(x)
    store.outs.append(o)
loss = torch.stack(store.outs).sum()
loss.backward()
print("dataclass", round(model.bias.grad.sum().item(), 4))
model.zero_grad()


def run():
    last = None

    def evaluate():
        nonlocal last
        model.eval()
        for x in xs:
            last = model(x)

    evaluate()
    last.pow(2).sum().backward()
    return round(model.weight.grad.sum().item(), 4)


print("nonlocal", run())
model.zero_grad()


class Log:
    pass


log = Log()
model.eval()
for i, x in enumerate(xs):
    y = model(x)
    setattr(log, "step" + str(i), y)
sum(getattr(log, "step" + str(i)).sum() for i in range(4)).backward()
print("setattr", round(model.weight.grad.abs().sum().item(), 4))

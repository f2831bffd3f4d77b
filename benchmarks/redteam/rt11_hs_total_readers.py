# corpus: runnable
# Running `.item()` sums read in ways a search of the loop may miss: a scheduler's lr_lambda
# closure reading the global total, a functools.partial of print bound before the loop, a
# `nonlocal` total in a closure, a total deleted and rebound per epoch, json of the totals.
import functools
import json

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
xs = torch.randn(6, 4, 3)
seen = 0.0
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda step: 1.0 / (1.0 + seen))
for x in xs:
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    seen += loss.item()
print("lambda lr", round(opt.param_groups[0]["lr"], 6), round(seen, 4))


def trainer():
    tot = 0.0

    def step(x):
        nonlocal tot
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item()

    for x in xs:
        step(x)
    return tot


print("nonlocal", json.dumps(round(trainer(), 4)))

history = []
for epoch in range(2):
    epoch_loss = 0.0
    for x in xs:
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
    history.append(epoch_loss)
    del epoch_loss
print("json", json.dumps([round(h, 4) for h in history]))

report = functools.partial(print, "epoch total")
val = 0.0
for x in xs:
    loss = model(x).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    val += loss.item()
report(val)

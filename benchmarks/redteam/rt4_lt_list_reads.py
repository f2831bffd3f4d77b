# corpus: runnable
# The list of `.item()` floats is used as a list of Python floats elsewhere: json logging,
# `%` formatting, `list.index`, `statistics`, equality with floats, repr in a log line.
import json
import statistics

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(16, 3), torch.randn(16, 1)
losses = []
for step in range(4):
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
curve = torch.tensor(losses)  # paef: refuse list-to-tensor
print(curve.mean())
print(json.dumps({"loss": losses}))
print("last %.4f" % losses[-1])
print(losses.index(min(losses)), statistics.mean(losses) > 0)
print(losses[0] == float(curve[0]), type(losses[-1]).__name__)
print(repr(losses)[:20])

grads = []
for p in model.parameters():
    grads.append(p.grad.abs().max().item())
g = torch.tensor(grads)  # paef: refuse list-to-tensor
print(g, f"{grads[0]:.3f}", sorted(grads) == grads)

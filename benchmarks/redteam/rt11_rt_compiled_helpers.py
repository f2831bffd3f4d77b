# corpus: runnable
# Helpers that change the per-epoch buffer in place, reached through wrappers the analysis may
# not follow: `torch.compile` (eager backend), `functools.partial` bound before the loop,
# `torch.no_grad()` used as a decorator on a name bound elsewhere, a staticmethod in a table.
import functools

import torch

torch.set_num_threads(1)
xs = torch.arange(1.0, 7.0).reshape(3, 2)


def accumulate(buf, x):
    buf.add_(x)
    return buf


fast = torch.compile(accumulate, backend="eager")
rows = []
for epoch in range(3):
    acc = torch.zeros(2)
    for x in xs:
        fast(acc, x)
    rows.append(acc.sum().item())
print("compiled", rows)

add_to = functools.partial(accumulate)
rows = []
for epoch in range(3):
    acc2 = torch.zeros(2)
    for x in xs:
        add_to(acc2, x)
    rows.append(acc2.sum().item())
print("partial", rows)

quiet = torch.no_grad()(accumulate)
rows = []
for epoch in range(3):
    acc3 = torch.zeros(2)
    for x in xs:
        quiet(acc3, x)
    rows.append(acc3.sum().item())
print("decorated", rows)


class Ops:
    bump = staticmethod(lambda t: t.mul_(2))


ops = {"bump": Ops.bump}
rows = []
for epoch in range(3):
    acc4 = torch.ones(2)
    for x in xs:
        ops["bump"](acc4)
    rows.append(acc4.sum().item())
print("table", rows)

rows = []
for epoch in range(3):
    acc5 = torch.zeros(2)
    list(map(functools.partial(accumulate, acc5), xs))
    rows.append(acc5.sum().item())
print("map partial", rows)

# corpus: runnable
# Red team 26, wave 1 (blind): arrays reached through Python containers and builtins that hand
# back the same object, not a copy: `dict.get`, `dict.setdefault`, `copy.copy` of a dict (shallow),
# `list(a)` of a 2-D array (its rows are views), `tuple(...)`, `sorted(...)` / `max(..., key=)` of
# a list of arrays, `next(iter(d.values()))`, a dataclass field, `functools.partial` of a helper,
# `operator.itemgetter`; the loop changes the arrays in place
import copy
import functools
import operator
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2602)
device = "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class Stats:
    mean: np.ndarray
    count: int


def keep(a):
    return a


table = np.arange(1.0, 7.0).reshape(2, 3)
scales = np.full(3, 2.0)
buffers = {"scale": scales, "table": table}
stats = Stats(np.ones(3), 0)
got = buffers.get("scale")
kept = buffers.setdefault("table", np.zeros((2, 3)))
shallow = copy.copy(buffers)["scale"]
first_row = list(table)[0]
as_tuple = tuple(table)[1]
by_sum = sorted([scales, table[0]], key=lambda a: float(a.sum()))[0]
largest = max([scales, table[1]], key=lambda a: float(a.max()))
from_values = next(iter(buffers.values()))
field = stats.mean
keep_scale = functools.partial(keep, scales)
partial_scale = keep_scale()
second = operator.itemgetter(1)(table)
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    x = torch.randn(8, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    scales *= 1.25
    table += 0.5
    stats.mean += float(step)
    r1 = np.log1p(got)
    r2 = np.log1p(kept)
    r3 = np.log1p(shallow)
    r4 = np.log1p(first_row)
    r5 = np.log1p(as_tuple)
    r6 = np.log1p(by_sum)
    r7 = np.log1p(largest)
    r8 = np.log1p(from_values)
    r9 = np.log1p(field)
    r10 = np.log1p(partial_scale)
    r11 = np.log1p(second)
    log.append([round(float(v.sum()), 4) for v in (r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11)])
print("containers", log)

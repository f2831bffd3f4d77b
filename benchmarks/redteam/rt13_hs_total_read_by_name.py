# corpus: runnable
# `.item()` running totals read inside the loop by code that names them as strings or through a
# namespace: `eval("total")`, `globals()["total"]`, `vars()["total"]` at module level, a
# `string.Template` over `globals()`, `"%(total)s" % globals()`, `operator.attrgetter` on a
# `SimpleNamespace` holding the sum.
import operator
import string
import types

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
xs = torch.randn(3, 4, 3).to(device)


def step(x):
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


total = 0.0
for x in xs:
    loss = step(x)
    total += loss.item()
    print("eval", eval("total"))

run = 0.0
for x in xs:
    loss = step(x)
    run += loss.item()
    print("globals", globals()["run"])

acc = 0.0
for x in xs:
    loss = step(x)
    acc += loss.item()
    print(string.Template("tmpl $acc").substitute(globals()))

agg = 0.0
for x in xs:
    loss = step(x)
    agg += loss.item()
    print("pct %(agg)s" % globals())

ns = types.SimpleNamespace(s=0.0)
get_s = operator.attrgetter("s")
for x in xs:
    loss = step(x)
    ns.s += loss.item()
    print("attrgetter", get_s(ns))

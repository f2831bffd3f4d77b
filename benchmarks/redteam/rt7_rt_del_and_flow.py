# corpus: runnable
# Constants built in a loop whose control flow makes hoisting visible: `del` at the end of the
# body, a `continue` or `break` guard before an invalid size, a generator yielding the buffer
# that the consumer changes, `yield from` of a helper generator, a lambda default and a
# `functools.partial` keeping each iteration's buffer.
import functools

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
xs = torch.randn(4, 3)

res = []
for step in range(3):
    buf = torch.zeros(3, device=device)
    res.append((buf + xs[step].to(device)).sum().item())
    del buf
print("del", [round(v, 5) for v in res])

short = 2
res = []
for row in xs:
    if short < 3:
        res.append(row.sum().item())
        continue
    pad = torch.zeros(short - 3, device=device)
    res.append(torch.cat([row.to(device), pad]).sum().item())
print("continue", [round(v, 5) for v in res])

limit = -1
res = []
for row in xs:
    if limit < 0:
        break
    mask = torch.ones(limit, device=device)
    res.append(mask.sum().item())
print("break", res)


def windows():
    for step in range(3):
        w = torch.zeros(3, device=device)
        yield w


res = []
for w in windows():
    w.add_(1.0)
    res.append(w.sum().item())
print("yield", res)


def inner_gen(k):
    for _ in range(k):
        z = torch.ones(2, device=device)
        yield z


def outer_gen():
    yield from inner_gen(3)


kept = list(outer_gen())
kept[0].mul_(5.0)
print("yield from", [z.sum().item() for z in kept])

fns = []
for step in range(3):
    base = torch.zeros(2, device=device)
    fns.append(lambda b=base: b)
fns[0]().add_(1.0)
print("lambda default", [f().sum().item() for f in fns])

adders = []
for step in range(3):
    offset = torch.zeros(2, device=device)
    adders.append(functools.partial(torch.Tensor.add_, offset))
adders[0](torch.ones(2, device=device))
print("partial", [a.args[0].sum().item() for a in adders])

# corpus: runnable
# Iterators advanced by the expression a hoist would move: `next(it)` of a list iterator, a
# generator function's `next`, `itertools.count`, a bound `__next__` kept as a value, a
# `functools.partial(next, it)`. Each step must take the next item.
import functools
import itertools

import torch

torch.set_num_threads(1)
lrs = iter([0.1, 0.05, 0.01, 0.005])
got = []
for step in range(3):
    lr = torch.tensor(next(lrs))
    got.append(round(float(lr), 4))
print("lrs", got)


def warmup():
    v = 0.0
    while True:
        v += 0.25
        yield v


sched = warmup()
ws = []
for step in range(3):
    f = torch.full((2,), next(sched))
    ws.append(f.tolist())
print("warmup", ws)

ids = itertools.count(10)
tags = []
for step in range(3):
    t = torch.tensor([next(ids), 0])
    tags.append(t.tolist())
print("ids", tags)

pull = iter(range(5, 100, 7)).__next__
pulled = []
for step in range(3):
    p = torch.arange(pull() % 4 + 1)
    pulled.append(p.numel())
print("pulled", pulled)

take = functools.partial(next, iter("abcd"))
letters = []
for step in range(3):
    code = torch.tensor(ord(take()))
    letters.append(int(code))
print("letters", letters)

# corpus: runnable
# Tensor factories inside generator functions whose consumer changes what they read between
# `next()` calls: `send()` a new scale, a caller rebinding a global, a pipeline of generators,
# a generator closed early (`finally`).
import torch

torch.set_num_threads(1)
CFG = {"scale": 1.0}


def scaled(n):
    for i in range(n):
        t = torch.tensor(CFG["scale"])
        yield float(t)


out = []
for v in scaled(3):
    out.append(v)
    CFG["scale"] += 1.0
print("caller changes", out)

WIDTH = 1


def widths(n):
    for i in range(n):
        z = torch.zeros(WIDTH)
        yield z.numel()


out = []
for w in widths(3):
    out.append(w)
    WIDTH += 1
print("global rebound by caller", out)


def receiver():
    lr = 1.0
    got = []
    for i in range(3):
        t = torch.full((2,), lr)
        new = yield t.tolist()
        if new is not None:
            lr = new
        got.append(lr)


g = receiver()
out = [next(g)]
out.append(g.send(0.5))
out.append(g.send(0.25))
print("send", out)

state = {"k": 0}


def stage1():
    for i in range(3):
        state["k"] += 1
        yield i


def stage2(items):
    for i in items:
        t = torch.tensor(state["k"])
        yield int(t)


print("pipeline", list(stage2(stage1())))

# corpus: runnable
# Tensors and values shared through closures and default arguments: a default tensor argument
# changed in place by the function, a closure over a tensor that a callback changes, a
# class attribute changed through `type(self)`, a bound method kept in a list.
import torch

torch.set_num_threads(1)


def bump(t=torch.zeros(2)):
    t += 1
    return t


out = []
for i in range(3):
    b = bump()
    snap = torch.tensor(b.tolist())
    out.append(snap.tolist())
print("default tensor", out)


def make_counter():
    box = torch.zeros(1)

    def tick():
        box.add_(1)

    def read():
        return box

    return tick, read


tick, read = make_counter()
out = []
for i in range(3):
    v = torch.tensor(read().item())
    tick()
    out.append(float(v))
print("closure tensor", out)


class Cfg:
    scale = 1.0

    def grow(self):
        type(self).scale *= 2


c = Cfg()
out = []
for i in range(3):
    s = torch.tensor(Cfg.scale)
    c.grow()
    out.append(float(s))
print("class attr via type(self)", out)


class Sched:
    def __init__(self):
        self.lr = 1.0

    def step(self):
        self.lr /= 10


sched = Sched()
calls = [sched.step]
out = []
for i in range(3):
    lr = torch.tensor(sched.lr)
    for f in calls:
        f()
    out.append(float(lr))
print("bound method list", out)

# corpus: runnable
# Iteration itself changing what the loop's tensor reads: a generator function that scales a
# global tensor in place before each yield, an iterator class whose `__next__` appends to a list,
# `enumerate` over a generator that rebinds a global through `global`.
import torch

torch.set_num_threads(1)
gain = torch.ones(2)
classes = [0.0, 1.0]
offset = 0.0


def batches(n):
    for i in range(n):
        gain.mul_(2)
        yield i


class Stream:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        classes.append(float(len(classes)))
        return self.n


def shifting(n):
    global offset
    for i in range(n):
        offset += 1.5
        yield i


a = []
for i in batches(3):
    g = torch.tensor(gain.tolist())
    a.append(g.tolist())
print("generator", a)

b = []
for i in Stream(3):
    c = torch.tensor(classes)
    b.append(c.numel())
print("iterator class", b)

d = []
for k, i in enumerate(shifting(3)):
    o = torch.full((2,), offset)
    d.append(o.tolist())
print("enumerate generator", d)

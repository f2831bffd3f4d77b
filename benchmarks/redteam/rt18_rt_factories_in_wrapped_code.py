# corpus: runnable
# Factories inside loops that run in generators, context managers, decorated functions and
# `functools.partial` objects, some of them drawing from the RNG stream the loop's other draws
# share, some built from a list that the wrapper changes between iterations.
import contextlib
import functools
import random
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
random.seed(0)


def batches(n):
    for _ in range(n):
        noise = torch.randn(2)
        yield noise + torch.rand(2)


print("A gen", [round(b.sum().item(), 4) for b in batches(3)])

sizes = [1, 2]


@contextlib.contextmanager
def grow():
    sizes.append(len(sizes) + 1)
    yield
    sizes.pop(0)


out = []
for _ in range(3):
    with grow():
        t = torch.tensor(sizes)
        out.append(t.tolist())
print("B cm", out)


def counted(fn):
    calls = []

    @functools.wraps(fn)
    def inner(*a):
        calls.append(1)
        return fn(*a, len(calls))

    return inner


@counted
def scale(x, k):
    return x * k


out = []
for i in range(3):
    base = torch.ones(2)
    out.append(scale(base).tolist())
print("C deco", out)


def draw(n, lo):
    return [lo + random.random() for _ in range(n)]


pick = functools.partial(draw, 2)
out = []
for i in range(3):
    vals = pick(0.5)
    t = torch.tensor([0.1, 0.2])
    out.append(round((t + torch.tensor(vals)).sum().item(), 4))
print("D partial", out)

out = []
g = torch.Generator().manual_seed(3)
for i in range(3):
    e = torch.empty(2).uniform_(generator=g)
    z = torch.zeros(2)
    out.append(round((e + z).sum().item(), 4))
print("E generator", out)

out = []
for i in range(3):
    mask = torch.bernoulli(torch.full((4,), 0.5))
    ones = torch.ones(4)
    out.append((mask * ones).tolist())
print("F bernoulli", out)

out = []
state = {"k": 1}


def bump():
    state["k"] += 1
    return state["k"]


for i in range(3):
    bump()
    t = torch.tensor(float(state["k"]))
    out.append(t.item())
print("G dict via helper", out)

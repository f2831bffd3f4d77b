# corpus: runnable
# Wave 3, against this branch's first fixes. eval-without-no-grad: a summing method's result handed
# out by a generator (`yield self.run(b)`), through a lambda, kept in a list then summed, and read
# by `torch.autograd.grad`. host-sync: a manager bound to a name first (`quiet = pytest.raises(E)`),
# a program class deriving from `contextlib.ExitStack`, and a manager class two program bases away
# from a swallowing `__exit__`.
import contextlib

import pytest
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
net = nn.Linear(5, 1).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
crit = nn.MSELoss()
chunks = [(torch.randn(6, 5), torch.randn(6, 1)) for _ in range(3)]


class Streamed:
    def run(self, batches):
        acc = 0
        for x, y in batches:
            acc += crit(net(x.to(device)), y.to(device))
        return acc

    def stream(self, batches):
        yield self.run(batches)


class ViaLambda:
    def run(self, batches):
        acc = 0
        for x, y in batches:
            acc = acc + crit(net(x.to(device)), y.to(device))
        return acc


class Listed:
    def part(self, batches):
        acc = 0
        for x, y in batches:
            acc += crit(net(x.to(device)), y.to(device))
        return acc


class ForGrad:
    def total(self, batches):
        acc = 0
        for x, y in batches:
            acc += crit(net(x.to(device)), y.to(device))
        return acc


for s in Streamed().stream(chunks):
    opt.zero_grad()
    s.backward()
    opt.step()
print("streamed", net.weight.data.sum().item())
fn = lambda b: ViaLambda().run(b)
opt.zero_grad()
fn(chunks).backward()
opt.step()
parts = []
parts.append(Listed().part(chunks))
parts.append(Listed().part(chunks[:1]))
opt.zero_grad()
sum(parts).backward()
opt.step()
g = torch.autograd.grad(ForGrad().total(chunks), net.weight)[0]
print("grads", net.weight.data.sum().item(), g.norm().item())


class BadBatch(Exception):
    pass


class Stack(contextlib.ExitStack):
    pass


class Base:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return kind is BadBatch


class Middle(Base):
    pass


class Leaf(Middle):
    pass


def check(i):
    if i == 2:
        raise BadBatch(i)


quiet = pytest.raises(BadBatch)
a = 0.0
with quiet:
    for i, (x, y) in enumerate(chunks):
        loss = crit(net(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        a += loss.item()
        check(i)
print("A", repr(a), type(a).__name__)

b = 0.0
with Stack() as stack:
    stack.enter_context(contextlib.suppress(BadBatch))
    for i, (x, y) in enumerate(chunks):
        loss = crit(net(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        b += loss.item()
        check(i)
print("B", repr(b), type(b).__name__)

c = 0.0
with Leaf():
    for i, (x, y) in enumerate(chunks):
        loss = crit(net(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        c += loss.item()
        check(i)
print("C", repr(c), type(c).__name__)

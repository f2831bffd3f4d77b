# corpus: runnable
# Device training loops whose `.item()` running totals are read where the loop is left without
# reaching the statement after it: a `for ... else` clause, a `return` from inside the loop, a
# generator's consumer reading a module-level total between `next()` calls, a `while` whose
# condition reads the total, an ExitStack swallowing an error, a NumPy float32 start, a total
# started from a helper's tensor.
import contextlib
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
crit = nn.MSELoss()


def step(x, y):
    x, y = x.to(device), y.to(device)
    loss = crit(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


total = 0.0
for x, y in batches:
    loss = step(x, y)
    total += loss.item()
else:
    print("A else", repr(total), type(total).__name__)
print("A after", repr(total))


def until_budget(limit):
    seen = 0.0
    for x, y in batches:
        loss = step(x, y)
        seen += loss.item()
        if x[0, 0] > limit:
            return seen
    return -1.0


r = until_budget(0.5)
print("B", repr(r), type(r).__name__)

running = 0.0


def stream():
    global running
    for x, y in batches:
        loss = step(x, y)
        running += loss.item()
        yield x.shape[0]


for n in stream():
    print("C", n, repr(running), type(running).__name__)

acc = 0
with contextlib.ExitStack() as stack:
    stack.enter_context(contextlib.suppress(ZeroDivisionError))
    for i, (x, y) in enumerate(batches):
        loss = step(x, y)
        acc += (model(x.to(device)) > 0).sum().item()
        if i == 2:
            1 / 0
print("D", repr(acc), type(acc).__name__)

npt = np.float32(0.0)
for x, y in batches:
    loss = step(x, y)
    npt += loss.item()
print("E", repr(npt), type(npt).__name__)


def zero():
    return torch.zeros(())


tt = zero()
for x, y in batches:
    loss = step(x, y)
    tt += loss.item()
print("F", repr(tt), type(tt).__name__)

w = 0.0
k = 0
while w < 2.0 and k < len(batches):
    x, y = batches[k]
    loss = step(x, y)
    w += loss.item()
    k += 1
print("G", k, repr(w))

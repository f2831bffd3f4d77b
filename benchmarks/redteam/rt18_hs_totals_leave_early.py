# corpus: runnable
# Running totals of `.item()` read where the loop is left without reaching the statement after
# it: a `for ... else` clause, a `return` from inside the loop, a generator's consumer reading a
# module-level total between `next()` calls, a `while` whose condition reads the total, a loop
# in an `ExitStack`, a total started from a NumPy scalar or a helper's tensor.
import contextlib
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Linear(4, 1)
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]
crit = nn.MSELoss()

# A: the for-else clause runs before anything placed after the loop
total = 0.0
for x, y in batches:
    total += crit(model(x), y).item()
else:
    print("A else", repr(total), type(total).__name__)
print("A after", repr(total))


# B: a return from inside the loop hands the total out
def until_budget(limit):
    seen = 0.0
    for x, y in batches:
        seen += crit(model(x), y).item()
        if x[0, 0] > limit:
            return seen
    return -1.0


r = until_budget(0.5)
print("B", repr(r), type(r).__name__)

# C: a generator keeps a module total; its consumer reads it between steps
running = 0.0


def stream():
    global running
    for x, y in batches:
        running += crit(model(x), y).item()
        yield x.shape[0]


for n in stream():
    print("C", n, repr(running), type(running).__name__)

# D: ExitStack around the loop, the loop left by an exception the stack swallows
acc = 0
with contextlib.ExitStack() as stack:
    stack.enter_context(contextlib.suppress(ZeroDivisionError))
    for i, (x, y) in enumerate(batches):
        acc += (model(x) > 0).sum().item()
        if i == 2:
            1 / 0
print("D", repr(acc), type(acc).__name__)

# E: a total started from a NumPy float32
npt = np.float32(0.0)
for x, y in batches:
    npt += crit(model(x), y).item()
print("E", repr(npt), type(npt).__name__)


# F: a total started from a helper's value
def zero():
    return torch.zeros(())


tt = zero()
for x, y in batches:
    tt += crit(model(x), y).item()
print("F", repr(tt), type(tt).__name__)

# G: a while loop whose condition reads the total
w = 0.0
k = 0
while w < 2.0 and k < len(batches):
    x, y = batches[k]
    w += crit(model(x), y).item()
    k += 1
print("G", k, repr(w))

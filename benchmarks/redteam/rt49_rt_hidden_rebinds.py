# corpus: runnable
# Red team 49 (blind): per-step tensors built from values that change out of the loop body's sight: a
# `nonlocal` decay closure, a `global` counter bumped by a `functools.wraps` logging decorator, a
# `contextmanager` that swaps a global for the duration of a `with`, a `@classmethod` that anneals a class
# attribute, an instance attribute reset by another method, and a name deleted and re-created in one branch.
import contextlib
import functools

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4908)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(31)
X = torch.randn(32, 4, generator=g)
Y = X.sum(1, keepdim=True)
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)


def step(x, y, w):
    loss = F.mse_loss(model((x * w).to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


# 1. nonlocal decay
def fit_decay():
    scale = 1.0

    def decay():
        nonlocal scale
        scale *= 0.5

    out = []
    for epoch in range(3):
        w = torch.full((4,), scale)
        out.append(round(step(X[:8], Y[:8], w), 8))
        decay()
    return out


print('nonlocal', fit_decay())

# 2. a logging decorator counts calls in a global
CALLS = 0


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        global CALLS
        CALLS += 1
        return fn(*a, **k)

    return wrapper


@logged
def evaluate(x, y):
    with torch.no_grad():
        return F.mse_loss(model(x.to(device)), y.to(device)).item()


for epoch in range(3):
    ids = torch.arange(CALLS + 2)
    print('decorated', epoch, ids.tolist(), round(evaluate(X[8:16], Y[8:16]), 8))

# 3. a context manager swaps a global for the duration of the block
NOISE = 0.0


@contextlib.contextmanager
def noise_level(v):
    global NOISE
    old, NOISE = NOISE, v
    try:
        yield
    finally:
        NOISE = old


for epoch in range(3):
    with noise_level(0.1 * (epoch + 1)):
        jitter = torch.full((8, 4), NOISE)
        print('context', epoch, round(step(X[16:24] + jitter, Y[16:24], 1.0), 8), jitter[0, 0].item())


# 4. a classmethod anneals a class attribute; 5. a method resets an instance attribute
class Schedule:
    temperature = 2.0

    @classmethod
    def anneal(cls):
        cls.temperature *= 0.7


class Smoother:
    def __init__(self):
        self.alpha = 0.9

    def reset(self):
        self.alpha = 0.5


smoother = Smoother()
for epoch in range(3):
    temps = torch.full((2,), Schedule.temperature)
    mix = torch.tensor([smoother.alpha, 1 - smoother.alpha])
    print('attrs', epoch, [round(t, 6) for t in temps.tolist()], [round(m, 6) for m in mix.tolist()])
    Schedule.anneal()
    if epoch == 0:
        smoother.reset()

# 6. a NumPy table deleted and re-created in one branch only
table = np.linspace(0.0, 1.0, 4)
for epoch in range(3):
    centred = torch.from_numpy(table - table.mean()).float()
    print('del', epoch, [round(v, 6) for v in centred.tolist()])
    if epoch == 1:
        del table
        table = np.geomspace(1.0, 8.0, 4)
print('final', f'{model.weight.sum().item():.8f}', CALLS, round(Schedule.temperature, 6))

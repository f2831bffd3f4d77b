# corpus: runnable
# Device training loops under managers whose swallowing is one step away: a program function
# returning `contextlib.suppress`, a manager kept on `self`, a manager chosen by a dict lookup,
# a class whose `__exit__` delegates to another object's. The read-back after the loop is skipped
# when the loop is left by the exception they swallow.
import contextlib
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]


def guard_for(kind):
    return contextlib.suppress(kind)


a = 0.0
with guard_for(StopIteration):
    for i, (x, y) in enumerate(data):
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        a += loss.item()
        if i == 2:
            raise StopIteration
print("A", repr(a), type(a).__name__)


class Runner:
    def __init__(self):
        self.guard = contextlib.suppress(StopIteration)

    def fit(self):
        b = 0.0
        with self.guard:
            for i, (x, y) in enumerate(data):
                loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
                opt.zero_grad()
                loss.backward()
                opt.step()
                b += loss.item()
                if i == 1:
                    raise StopIteration
        return repr(b), type(b).__name__


print("B", Runner().fit())

managers = {"quiet": contextlib.suppress(StopIteration)}
c = 0.0
with managers["quiet"]:
    for i, (x, y) in enumerate(data):
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        c += loss.item()
        if i == 1:
            raise StopIteration
print("C", repr(c), type(c).__name__)


class Delegate:
    def __init__(self):
        self.inner = contextlib.suppress(StopIteration)

    def __enter__(self):
        return self.inner.__enter__()

    def __exit__(self, *exc):
        return self.inner.__exit__(*exc)


d = 0.0
with Delegate():
    for i, (x, y) in enumerate(data):
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        d += loss.item()
        if i == 1:
            raise StopIteration
print("D", repr(d), type(d).__name__)

# corpus: runnable
# A project whose training loops run inside error-tolerance managers re-exported by a local module
# (`from contextlib import suppress as ignore_errors`, `ExitStack as Stack`), reached by name, through
# the module, and through a factory; each loop keeps an `.item()` running total read after it.
import torch
from torch import nn

import guards
from guards import Stack, ignore_errors, skip_bad_batches

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(5)]


def step(i, x, y):
    loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if i == 3:
        raise FloatingPointError("nan loss")
    return loss


a = 0.0
with ignore_errors(FloatingPointError):
    for i, (x, y) in enumerate(batches):
        a += step(i, x, y).item()
print("A", repr(a), type(a).__name__)

b = 0.0
with guards.ignore_errors(FloatingPointError):
    for i, (x, y) in enumerate(batches):
        b += step(i, x, y).item()
print("B", repr(b), type(b).__name__)

c = 0.0
with skip_bad_batches(FloatingPointError):
    for i, (x, y) in enumerate(batches):
        c += step(i, x, y).item()
print("C", repr(c), type(c).__name__)

d = 0.0
with Stack() as stack:
    stack.enter_context(ignore_errors(FloatingPointError))
    for i, (x, y) in enumerate(batches):
        d += step(i, x, y).item()
print("D", repr(d), type(d).__name__)

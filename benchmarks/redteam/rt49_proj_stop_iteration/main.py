# corpus: runnable
# Red team 49 (blind): loops left by exceptions. An epoch driven by hand with `next(it)` until StopIteration
# (caught outside the `while True`), a Ctrl-C-style KeyboardInterrupt raised by a step budget (callbacks.py)
# and caught around the loop, a validation helper raising on a diverging loss, an out-of-memory fallback
# that halves the batch and retries, and `finally` blocks that log the running totals.
import torch
import torch.nn as nn
import torch.nn.functional as F

from callbacks import Diverged, StepBudget, check_loss, reserve
from data import is_bad, make_batches

torch.manual_seed(490)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)


def train_step(x, y):
    logits = model(x.to(device))
    loss = F.binary_cross_entropy_with_logits(logits, y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


# 1. an epoch driven by hand: the loop ends by StopIteration, caught outside it
it = iter(make_batches(1))
total = 0.0
steps = 0
try:
    while True:
        x, y = next(it)
        if is_bad(x):
            continue
        loss = train_step(x, y)
        total += loss.item()
        steps += 1
except StopIteration:
    pass
print('hand epoch', steps, repr(total), type(total).__name__)

# 2. a step budget raising KeyboardInterrupt from another module
budget = StepBudget(4)
running = 0.0
try:
    for x, y in make_batches(2):
        if is_bad(x):
            continue
        loss = train_step(x, y)
        running += loss.item()
        budget.on_step()
except KeyboardInterrupt:
    print('interrupted after', budget.seen, 'steps; running loss', running)

# 3. a validation helper raising on divergence; the handler reports the partial sum
partial = 0.0
try:
    for k, (x, y) in enumerate(make_batches(3)):
        if is_bad(x):
            continue
        loss = train_step(x * (1 + 3 * k), y)
        partial += loss.item()
        check_loss(loss.item(), 0.9)
except Diverged as err:
    print('diverged:', err, 'partial', partial)

# 4. out-of-memory fallback: halve the chunk and retry the same batch
capacity = 8
epoch_loss = 0.0
retries = 0
for x, y in make_batches(4):
    if is_bad(x):
        continue
    rows = x.shape[0]
    while True:
        try:
            reserve(rows, capacity)
            for s in range(0, x.shape[0], rows):
                loss = train_step(x[s:s + rows], y[s:s + rows])
                epoch_loss += loss.item() * rows
            break
        except RuntimeError as e:
            if 'out of memory' not in str(e):
                raise
            retries += 1
            rows //= 2
print('oom fallback', retries, f'{epoch_loss:.8f}', type(epoch_loss).__name__)

# 5. `finally` logs the epoch total even when the epoch is cut short
log = []
for epoch in range(3):
    seen = 0.0
    try:
        for b, (x, y) in enumerate(make_batches(10 + epoch)):
            if is_bad(x):
                raise ValueError(f'bad batch {b}')
            loss = train_step(x, y)
            seen += loss.item()
    except ValueError as err:
        print('epoch', epoch, 'stopped:', err)
    finally:
        log.append(seen)
print('log', log)
print('weights', f'{sum(p.sum().item() for p in model.parameters()):.8f}')

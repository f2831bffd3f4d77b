# corpus: runnable
# Red team 49 (blind): gradient accumulation and running totals kept in closures and globals. The summed loss
# is back-propagated by a `global`-rebinding flush, by a `nonlocal` flush closure inside the epoch function,
# by a decorated (`functools.wraps`) flush that fires every other call, and a class attribute serves as the
# shared running total that a lambda reports.
import torch
import torch.nn as nn
import torch.nn.functional as F

from accum import apply, every

torch.manual_seed(4903)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(3)
X = torch.randn(48, 4, generator=g)
Y = X[:, :1] * 1.5 - X[:, 1:2] * 0.5 + 0.05 * torch.randn(48, 1, generator=g)
batches = [(X[i:i + 6], Y[i:i + 6]) for i in range(0, 48, 6)]

model = nn.Sequential(nn.Linear(4, 10), nn.Tanh(), nn.Linear(10, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ACC = 2

# 1. a module-level total that a `global` flush back-propagates and resets
total = 0.0


def flush():
    global total
    apply(total, ACC, opt)
    total = 0.0


for step, (x, y) in enumerate(batches, start=1):
    loss = F.mse_loss(model(x.to(device)), y.to(device))
    total += loss
    if step % ACC == 0:
        flush()
print('global flush', f'{model[0].weight.sum().item():.8f}')


# 2. a `nonlocal` flush closure inside the epoch function
def train_epoch(batches):
    acc = 0.0
    count = 0
    seen = []

    def flush_local():
        nonlocal acc
        apply(acc, ACC, opt)
        seen.append(round(float(acc), 8))
        acc = 0.0

    for x, y in batches:
        loss = F.mse_loss(model(x.to(device)), y.to(device))
        acc = acc + loss
        count += 1
        if count % ACC == 0:
            flush_local()
    return seen


print('nonlocal flush', train_epoch(batches))

# 3. a decorated flush: the wrapper lets every second call through
pending = 0.0


@every(2)
def maybe_flush():
    global pending
    apply(pending, 2, opt)
    pending = 0.0
    return True


flushed = 0
for x, y in batches:
    loss = F.mse_loss(model(x.to(device)), y.to(device))
    pending += loss
    if maybe_flush():
        flushed += 1
print('decorated flush', flushed, maybe_flush.__name__, f'{model[2].bias.item():.8f}')


# 4. a class attribute as the shared running total, reported by a lambda
class Meter:
    total = 0.0
    count = 0


report = lambda: print('meter', Meter.count, round(Meter.total, 6))
for i, (x, y) in enumerate(batches):
    with torch.no_grad():
        loss = F.mse_loss(model(x.to(device)), y.to(device))
    Meter.total += loss.item()
    Meter.count += 1
    if i % 3 == 2:
        report()
report()

# 5. the running mean printed by a closure called inside the loop
running = 0.0


def show(step):
    print('running', step, round(running / step, 6))


for step, (x, y) in enumerate(batches, start=1):
    out = model(x.to(device))
    loss = F.mse_loss(out, y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    running += loss.item()
    if step % 4 == 0:
        show(step)
print('final', f'{running:.8f}', type(running).__name__)

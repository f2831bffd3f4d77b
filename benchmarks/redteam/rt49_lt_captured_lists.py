# corpus: runnable
# Red team 49 (blind): per-step metric lists that are turned into tensors at the end, but are also held
# elsewhere before the loop runs: a lambda's default argument, a `functools.partial` summary, a class
# attribute shared by every tracker instance, and a list that an `except` branch pads with a Python float.
import functools
import statistics

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(4906)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(9)
X = torch.randn(50, 3, generator=g)
Y = (X[:, 0] * X[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.03)

# 1. the list is captured as a lambda default when the lambda is defined
losses = []
summary = lambda xs=losses: (min(xs), max(xs), statistics.fmean(xs))
for i in range(0, 50, 10):
    loss = F.cross_entropy(model(X[i:i + 10].to(device)), Y[i:i + 10].to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print('lambda default', summary(), torch.tensor(losses).mean().item())

# 2. a partial bound to the list
accs = []
describe = functools.partial(sorted, accs)
for i in range(0, 50, 10):
    with torch.no_grad():
        pred = model(X[i:i + 10].to(device)).argmax(1)
    accs.append((pred == Y[i:i + 10].to(device)).float().mean().item())
print('partial', describe(), torch.tensor(accs).sum().item())


# 3. a class attribute every tracker shares
class Tracker:
    values = []

    def add(self, v):
        self.values.append(v)


tracker = Tracker()
norms = Tracker.values
for i in range(0, 50, 10):
    out = model(X[i:i + 10].to(device))
    norms.append(out.norm().item())
print('class attr', tracker.values[:2], type(tracker.values[0]).__name__, torch.tensor(norms).shape)

# 4. skipped batches are padded with NaN by the except branch
margins = []
for i in range(0, 50, 10):
    try:
        if i == 20:
            raise RuntimeError('corrupt shard')
        out = model(X[i:i + 10].to(device))
        margins.append((out[:, 1] - out[:, 0]).abs().mean().item())
    except RuntimeError:
        margins.append(float('nan'))
m = torch.tensor(margins)
print('nan padded', m.isnan().sum().item(), [round(v, 6) for v in m.nan_to_num(-1.0).tolist()])

# 5. a comprehension run for its side effect appends the per-row confidences
conf = []
with torch.no_grad():
    probs = model(X[:6].to(device)).softmax(1)
[conf.append(p.max().item()) for p in probs]
print('comprehension', torch.tensor(conf).dtype, [round(c, 6) for c in conf], statistics.median(conf))

# corpus: runnable
# Red team 32b, wave 1 (blind): a small forecaster trained on sliding windows of a fixed series.
# The windows are produced lazily by pure-Python helpers (a generator function with `yield`, a
# helper returning `zip(...)`, one returning `map(...)`) that only read the series; every epoch
# asks for them again and consumes them while building the batch.
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(9)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SERIES = [math.sin(0.4 * t) + 0.1 * t for t in range(30)]
K = 4


def sliding_windows(seq, k):
    for i in range(len(seq) - k):
        yield seq[i : i + k], seq[i + k]


def lagged_pairs(seq):
    return zip(seq[:-1], seq[1:])


def scaled(seq, factor):
    return map(lambda v: v * factor, seq)


model = nn.Linear(K, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(3):
    windows = sliding_windows(SERIES, K)
    pairs = lagged_pairs(SERIES)
    levels = scaled(SERIES, 0.5)
    xs, ys = [], []
    for window, nxt in windows:
        xs.append(window)
        ys.append(nxt)
    drift = sum(b - a for a, b in pairs) / (len(SERIES) - 1)
    level = max(levels, default=0.0)
    xb = torch.tensor(xs).to(device)
    yb = torch.tensor(ys).to(device)
    loss = F.mse_loss(model(xb).squeeze(1), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} n {len(xs)} drift {drift:.6f} level {level:.6f} loss {loss.item():.6f}")

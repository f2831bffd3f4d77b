# corpus: runnable
# Red team 16's open items: lists changed by library functions (heapq, bisect, array.array,
# deque) and read by a factory in the loop; a loop in a function whose caller catches the
# error its factory raises after the loop printed (a hoist would skip the prints); a default
# tensor argument (evaluated once, at the def); host checks (`assert` on a tensor, a per-row
# gather over host indices, a factory moved `.to(other)`, a whole buffer column converted).
import array
import bisect
import heapq
from collections import deque

import numpy as np
import torch

torch.set_num_threads(1)
torch.manual_seed(3)

heap = [5, 1]
sorted_vals = [2, 8]
arr = array.array("d", [0.5])
window = deque([1.0, 2.0], maxlen=3)
sums = []
for i in range(4):
    heapq.heappush(heap, 10 - i)
    bisect.insort(sorted_vals, i * 3)
    arr.append(float(i))
    window.append(float(i * i))
    a = torch.tensor(heap)
    b = torch.tensor(sorted_vals)
    c = torch.tensor(arr)
    d = torch.tensor(window)
    sums.append((a.sum().item(), b.sum().item(), f"{c.sum().item():.10f}", f"{d.sum().item():.10f}"))
print("library-changed", sums)


def build(n, names):
    made = []
    for name in names:
        print("building", name)
        made.append(torch.zeros(n) + len(name))
    return made


try:
    build(-1, ["a", "bb"])
except RuntimeError as err:
    print("caught", type(err).__name__)


def scaled(x, base=torch.zeros(2)):
    base += x
    return base.clone()


outs = []
for i in range(3):
    outs.append(scaled(torch.ones(2) * i).tolist())
print("default", outs)


weights = torch.randn(4, 3)
idx = torch.tensor([2, 0, 3])
vals = []
for step in range(3):
    h = weights * (step + 1)
    assert torch.isfinite(h).all()
    ends = idx.cpu().numpy() - 1
    rows = []
    for r, e in enumerate(ends):
        rows.append(h[r, e])
    noise = torch.rand(3).to(h)
    vals.append(f"{(torch.stack(rows) + noise).sum().item():.10f}")
print("host", vals)


class Buffer:
    def __init__(self):
        self.states, self.rewards = [], []

    def add(self, s, r):
        self.states.append(s)
        self.rewards.append(r)

    def sample(self, idxs):
        return torch.tensor(self.states)[idxs], torch.tensor(self.rewards)[idxs]


buf = Buffer()
rng = np.random.default_rng(0)
got = []
for t in range(6):
    buf.add([float(t), float(t) / 2], float(t % 3))
    s, r = buf.sample(rng.integers(0, len(buf.states), size=2))
    got.append(f"{s.sum().item() + r.sum().item():.10f}")
print("buffer", got)

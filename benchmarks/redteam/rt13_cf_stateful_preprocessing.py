# corpus: runnable
# NumPy / Python preprocessing in the loop on data that looks invariant, where the function has
# state: `np.random.shuffle` in place, a `random.Random` instance, an `itertools.count`, a class's
# `__call__` that counts, `np.random.default_rng` built per step with a fixed seed (invariant) next to
# one built once, and a `functools.lru_cache`d function over a list mutated through an alias.
import functools
import itertools
import random

import numpy as np
import torch

torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
data = np.arange(6, dtype=np.float32)
rng = random.Random(0)
counter = itertools.count()
gen = np.random.default_rng(0)


class Scaler:
    def __init__(self):
        self.calls = 0

    def __call__(self, a):
        self.calls += 1
        return a * self.calls


scaler = Scaler()
rows = []
for step in range(3):
    a = np.sort(data)[::-1].copy()
    b = np.array([rng.random() for _ in range(2)])
    c = np.full(2, next(counter))
    d = scaler(np.ones(2))
    e = gen.permutation(4)
    f = np.random.default_rng(1).permutation(4)
    rows.append(torch.from_numpy(np.concatenate([a[:1], b, c, d, e, f]).astype(np.float32)).to(device).tolist())
for r in rows:
    print([round(v, 4) for v in r])

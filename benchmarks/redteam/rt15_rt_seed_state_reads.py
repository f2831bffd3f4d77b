# corpus: runnable
# Seeds set inside the loop (per-episode reseeding) while the loop records the seed state:
# `torch.initial_seed()`, a word of NumPy's `get_state()`, Python's `random.getstate()`.
import random

import numpy as np
import torch

torch.manual_seed(7)
np.random.seed(7)
random.seed(7)
torch.set_num_threads(1)

seeds = []
for episode in range(3):
    s = torch.tensor(torch.initial_seed())
    torch.manual_seed(100 + episode)
    seeds.append(int(s))
print("torch seeds", seeds)

words = []
for episode in range(3):
    key = torch.tensor(int(np.random.get_state()[1][0]), dtype=torch.int64)
    np.random.seed(200 + episode)
    words.append(int(key))
print("numpy words", words)

py = []
for episode in range(3):
    k = torch.tensor(random.getstate()[1][1], dtype=torch.int64)
    random.seed(300 + episode)
    py.append(int(k))
print("python words", py)

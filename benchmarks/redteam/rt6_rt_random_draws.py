# corpus: runnable
# Masks and noise built in the loop by functions that draw from the random stream without
# `rand` in their name: functional dropout on a constant, randomized leaky ReLU, Gumbel
# softmax, a Sobol engine's draw, `torch.normal` with tensor moments, `exponential_`,
# `torch.poisson`, `random.choices`, `np.random.permutation`. Hoisting any of them out of the
# loop changes the random stream of the whole run.
import random

import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
base = torch.ones(6)
logits = torch.zeros(4)
engine = torch.quasirandom.SobolEngine(2, scramble=True, seed=0)

kept = []
for step in range(3):
    keep = F.dropout(torch.ones(6), p=0.5)
    kept.append(keep.tolist())
print("dropout", kept)

kept = []
for step in range(3):
    r = F.rrelu(torch.full((4,), -1.0), training=True)
    kept.append([round(v, 5) for v in r.tolist()])
print("rrelu", kept)

kept = []
for step in range(3):
    y = F.gumbel_softmax(torch.zeros(4), tau=1.0)
    kept.append([round(v, 5) for v in y.tolist()])
print("gumbel", kept)

kept = []
for step in range(3):
    pts = engine.draw(2)
    kept.append([round(v, 5) for v in pts.flatten().tolist()])
print("sobol", kept)

kept = []
for step in range(3):
    n = torch.normal(torch.zeros(3), torch.ones(3))
    e = torch.empty(3).exponential_()
    p = torch.poisson(torch.full((3,), 2.0))
    kept.append([round(v, 5) for v in (n + e + p).tolist()])
print("normal/exponential/poisson", kept)

picks = []
for step in range(3):
    idx = random.choices(range(10), k=3)
    perm = np.random.permutation(4)
    picks.append((idx, perm.tolist()))
print("choices/permutation", picks)

# corpus: runnable
# Random-number objects built every step from constants: `torch.Generator().manual_seed(7)`,
# `np.random.default_rng(3)`, `random.Random(5)`, `torch.quasirandom.SobolEngine`. Each draws
# from a fresh state per step; built once before the loop, the draws would move on.
import random

import numpy as np
import torch

torch.set_num_threads(1)
draws = []
for step in range(3):
    g = torch.Generator().manual_seed(7)
    noise = torch.randn(2, generator=g)
    draws.append([round(v, 6) for v in noise.tolist()])
print("Generator", draws)

draws = []
for step in range(3):
    rng = np.random.default_rng(3)
    t = torch.tensor(rng.normal(size=2))
    draws.append([round(v, 6) for v in t.tolist()])
print("default_rng", draws)

draws = []
for step in range(3):
    r = random.Random(5)
    t = torch.tensor([r.random() for _ in range(2)])
    draws.append([round(v, 6) for v in t.tolist()])
print("Random", draws)

draws = []
for step in range(3):
    eng = torch.quasirandom.SobolEngine(2, scramble=True, seed=1)
    pts = eng.draw(2)
    draws.append([round(v, 6) for v in pts.flatten().tolist()])
print("Sobol", draws)

draws = []
gen = torch.Generator().manual_seed(0)
for step in range(3):
    perm = torch.randperm(4, generator=gen)
    base = torch.arange(4)
    draws.append(base[perm].tolist())
print("shared generator", draws)

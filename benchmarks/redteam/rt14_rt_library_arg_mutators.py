# corpus: runnable
# Library functions that change their argument in place without a trailing underscore:
# `random.shuffle`, `np.random.shuffle`, a Generator's `shuffle`, `heapq.heapify`,
# `vector_to_parameters`, `F.leaky_relu(x, s, True)`, `F.relu(x, inplace=True)`,
# `nn.ReLU(inplace=True)(x)`, `np.copyto`, `F.dropout(..., inplace=True)` with p=0.
import heapq
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

order = [3, 1, 2, 0]
seen = []
for epoch in range(3):
    idx = torch.tensor(order)
    random.shuffle(order)
    seen.append(idx.tolist())
print("random.shuffle", seen)

arr = np.arange(5.0)
np.random.seed(0)
firsts = []
for epoch in range(3):
    t = torch.tensor(arr)
    np.random.shuffle(arr)
    firsts.append(t[0].item())
print("np.random.shuffle", firsts)

rng = np.random.default_rng(0)
perm = np.arange(6)
heads = []
for epoch in range(3):
    p = torch.as_tensor(perm.copy())
    rng.shuffle(perm)
    heads.append(p[:2].tolist())
print("Generator.shuffle", heads)

heap = [5, 3, 9, 1]
tops = []
for epoch in range(2):
    h = torch.tensor(heap)
    heapq.heapify(heap)
    heap.append(-epoch)
    tops.append(h.tolist())
print("heapify", tops)

layer = nn.Linear(2, 2)
norms = []
for step in range(3):
    w = torch.tensor(layer.weight.tolist())
    vector_to_parameters(torch.full((6,), float(step + 1)), layer.parameters())
    norms.append(round(w.sum().item(), 4))
print("vector_to_parameters", norms)

base = torch.linspace(-2, 2, 5)
outs = []
for step in range(3):
    c = torch.tensor(base.numpy().copy())
    F.leaky_relu(base, 0.5, True)
    outs.append(c.sum().item())
print("leaky_relu positional inplace", outs)

h = torch.linspace(-1, 1, 4)
act = nn.ReLU(inplace=True)
outs = []
for step in range(2):
    c = torch.tensor(h.numpy().copy())
    act(h)
    h -= 0.25
    outs.append(c.sum().item())
print("nn.ReLU(inplace=True)", outs)

g = torch.linspace(-1, 1, 4)
outs = []
for step in range(2):
    c = torch.tensor(g.numpy().copy())
    F.relu(g, inplace=True)
    g -= 0.5
    outs.append(c.sum().item())
print("F.relu inplace kw", outs)

dst = np.zeros(3)
outs = []
for step in range(3):
    c = torch.tensor(dst)
    np.copyto(dst, np.full(3, step + 1.0))
    outs.append(c.sum().item())
print("np.copyto", outs)

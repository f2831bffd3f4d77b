# corpus: runnable
# Red team 56 probe (NOT blind): tensors built from a length that changes every iteration, but only through
# state the loop body does not visibly rebind: a list grown by a helper or by `+=`, a dict entry and a global
# advanced by helpers, an itertools counter, a NumPy array incremented in place, a cache on a module grown by its
# own method, a closure counter, a deque filling up to its maxlen.
import collections
import itertools

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(5621)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
D = 8
W = torch.randn(D, D, device=device)
STEP = 1


def grow(tokens, tok):
    tokens.append(tok)


def advance(state):
    state['t'] += 1


def tick():
    global STEP
    STEP += 1


def make_counter():
    n = 0

    def bump():
        nonlocal n
        n += 1
        return n
    return bump


class Cache(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = torch.zeros(1, 0, D, device=device)

    def push(self, x):
        self.k = torch.cat([self.k, x.view(1, 1, D)], 1)


def attend(n):
    x = torch.arange(n, dtype=torch.float32, device=device)[:, None] * 0.1 + torch.ones(n, D, device=device)
    mask = torch.triu(torch.ones(n, n, device=device), 1).bool()
    att = (x @ W @ x.T).masked_fill(mask, float('-inf')).softmax(-1)
    return (att @ x).sum().item()


out = []
tokens = [0]
for i in range(4):
    pos = torch.arange(len(tokens), device=device)
    out.append(pos.sum().item() + attend(len(tokens)))
    grow(tokens, i)

seq = [0]
for i in range(4):
    ones = torch.ones(len(seq), device=device)
    out.append(ones.sum().item())
    seq += [i]

state = {'t': 1}
for i in range(4):
    mask = torch.triu(torch.ones(state['t'], state['t'], device=device), 1)
    out.append(mask.sum().item())
    advance(state)

for i in range(4):
    pos = torch.arange(STEP, device=device)
    out.append(pos.float().mean().item())
    tick()

counter = itertools.count(1)
for i in range(4):
    n = next(counter)
    out.append(torch.ones(n, n, device=device).tril().sum().item())

lens = np.array([1, 2])
for i in range(4):
    pos = torch.arange(int(lens[0]), device=device)
    out.append(pos.sum().item() * 2)
    lens += 1

cache = Cache()
for i in range(4):
    cache.push(torch.randn(D, device=device))
    pos = torch.arange(cache.k.shape[1], device=device)
    out.append((cache.k.sum(-1) * pos).sum().item())

bump = make_counter()
for i in range(4):
    m = bump()
    out.append(torch.linspace(0, 1, m + 1, device=device).sum().item())

window = collections.deque(maxlen=3)
for i in range(5):
    window.append(i)
    w = torch.ones(len(window), device=device) / len(window)
    out.append((w * torch.tensor(list(window), dtype=torch.float32, device=device)).sum().item())

print([round(v, 4) for v in out])
print('checksum', round(sum((i + 1) * v for i, v in enumerate(out)), 4))

# corpus: runnable
# Red team 54 probe (not blind): lists filled with .item() every step, turned into a tensor after the loop and
# ALSO used as Python values: set() and dict keys (a tensor hashes by identity), list.index / count / `in`,
# max() printed, sorted with a key, compared with ==, json.dumps. Each in its own function.
import json
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5422)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5422)
X = torch.randn(96, 4, generator=g)
Y = (X.sum(1) > 0).long()


def train(record):
    model = nn.Linear(4, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for b in range(0, 96, 8):
        out = model(X[b:b + 8].to(device))
        loss = F.cross_entropy(out, Y[b:b + 8].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        record(out, loss)


def preds_in_set():
    picks = []
    train(lambda out, loss: None)
    model = nn.Linear(4, 2).to(device)
    for b in range(0, 96, 8):
        out = model(X[b:b + 8].to(device))
        picks.append(out.argmax(1)[0].item())
    t = torch.tensor(picks)
    return t.sum().item(), len(set(picks)), sorted(Counter(picks).items()), picks.index(picks[-1]), 1 in picks


def losses_as_keys():
    losses = []
    model = nn.Linear(4, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for b in range(0, 96, 8):
        loss = F.cross_entropy(model(X[b:b + 8].to(device)), Y[b:b + 8].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    t = torch.tensor(losses)
    best = {v: i for i, v in enumerate(losses)}
    return round(t.mean().item(), 6), best[min(losses)], repr(max(losses))[:7], json.dumps(losses[:2])


def counts_sorted():
    counts = []
    model = nn.Linear(4, 2).to(device)
    for b in range(0, 96, 8):
        out = model(X[b:b + 8].to(device))
        counts.append((out.argmax(1) == 1).sum().item())
    t = torch.tensor(counts)
    order = sorted(range(len(counts)), key=lambda i: (counts[i], -i))
    same = counts == [int(c) for c in t]
    return t.tolist(), order[:5], same, counts.count(counts[0])


res = [preds_in_set(), losses_as_keys(), counts_sorted()]
for r in res:
    print(r)
print('checksum', len(str(res)))

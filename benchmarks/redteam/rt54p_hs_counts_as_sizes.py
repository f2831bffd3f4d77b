# corpus: runnable
# Red team 54 probe (not blind): counts summed from .item() over a training loop and read after it as Python
# ints: a size (torch.zeros(n)), a range, a slice bound, a list repeat, a dict key, '%d' formatting, a JSON
# dump, isinstance checks. Each in its own function so one refusal does not hide another.
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5421)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5421)
X = torch.randn(64, 5, generator=g)
Y = (X[:, 0] + X[:, 1] > 0).long()


def fresh():
    model = nn.Linear(5, 2).to(device)
    return model, torch.optim.SGD(model.parameters(), lr=0.1)


def count_as_size():
    model, opt = fresh()
    n_pos = 0
    for b in range(0, 64, 16):
        out = model(X[b:b + 16].to(device))
        loss = F.cross_entropy(out, Y[b:b + 16].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        n_pos += (out.argmax(1) == 1).sum().item()
    buf = torch.zeros(n_pos)
    return buf.shape[0], [0] * n_pos, X[:n_pos].sum().item()


def count_as_key():
    model, opt = fresh()
    correct = 0
    for b in range(0, 64, 16):
        out = model(X[b:b + 16].to(device))
        loss = F.cross_entropy(out, Y[b:b + 16].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (out.argmax(1) == Y[b:b + 16].to(device)).sum().item()
    table = {correct: 'correct'}
    return table, '%d of 64' % correct, json.dumps({'correct': correct}), isinstance(correct, int)


def count_in_range():
    model, opt = fresh()
    wrong = 0
    for b in range(0, 64, 16):
        out = model(X[b:b + 16].to(device))
        loss = F.cross_entropy(out, Y[b:b + 16].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        wrong += int((out.argmax(1) != Y[b:b + 16].to(device)).sum().item())
    steps = [i for i in range(wrong)]
    return len(steps), type(wrong).__name__, f'{wrong:03d}'


def loss_total_as_key():
    model, opt = fresh()
    total = 0.0
    for b in range(0, 64, 16):
        out = model(X[b:b + 16].to(device))
        loss = F.cross_entropy(out, Y[b:b + 16].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    hist = {round(total, 4): 'loss'}
    return hist, repr(total)[:8], json.dumps(round(total, 6)), type(total).__name__


def half_total():
    model, opt = fresh()
    total = 0
    for b in range(0, 64, 16):
        out = model(X[b:b + 16].to(device))
        loss = F.cross_entropy(out, Y[b:b + 16].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += (out.argmax(1) == 1).to(torch.uint8).sum(dtype=torch.uint8).item() * 100
    return total, type(total).__name__


res = [count_as_size(), count_as_key(), count_in_range(), loss_total_as_key(), half_total()]
for r in res:
    print(r)
print('checksum', len(str(res)))

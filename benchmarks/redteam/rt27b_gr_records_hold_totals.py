# corpus: runnable
# Red team 27, wave 2 (blind): epoch totals and loss lists kept with their graphs inside records
# built by library calls (a `namedtuple`, `SimpleNamespace`, `dict(...)`, `json.dumps(default=str)`,
# `collections.deque`, `textwrap`) and printed through the record.
import argparse
import collections
import json
import types

import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2705)
EpochStats = collections.namedtuple("EpochStats", ["epoch", "loss", "steps"])


def make_data(seed, n=4):
    g = torch.Generator().manual_seed(seed)
    return [(torch.randn(6, 5, generator=g), torch.randn(6, 1, generator=g)) for _ in range(n)]


def fit_namedtuple(model, data, epochs=2):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    records = []
    for epoch in range(epochs):
        total = 0.0
        for x, y in data:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss
        records.append(EpochStats(epoch, total, len(data)))
    return records


def fit_namespace(model, data):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sum_loss = 0
    for x, y in data:
        loss = nn.functional.l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sum_loss += loss
    return types.SimpleNamespace(loss=sum_loss, n=len(data))


def fit_dict_json(model, data):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    losses = []
    for x, y in data:
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss)
    logs = dict(last=losses[-1], count=len(losses))
    return json.dumps(logs, default=str, sort_keys=True)


def fit_window(model, data):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    recent = collections.deque(maxlen=2)
    train_loss = 0.0
    for x, y in data:
        loss = nn.functional.smooth_l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_loss += loss
    recent.extend([train_loss])
    return list(recent)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args([])
    data = make_data(args.seed)
    print(fit_namedtuple(nn.Linear(5, 1), data))
    print(vars(fit_namespace(nn.Linear(5, 1), data)))
    print(fit_dict_json(nn.Linear(5, 1), data))
    print(fit_window(nn.Linear(5, 1), data))

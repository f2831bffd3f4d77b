# corpus: runnable
# Red team 27, wave 1 (blind): running totals and loss histories kept with their graphs, then
# turned into text by outlets other than print / str / logging: a CSV log row, `pprint`,
# `", ".join(map(str, history))`, `getattr(total, "requires_grad")`, a tensor's own `__repr__`.
import csv
import io
import pprint

import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(2702)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 3))

    def forward(self, x):
        return self.net(x)


def batches(n):
    g = torch.Generator().manual_seed(n)
    return [(torch.randn(5, 6, generator=g), torch.randint(0, 3, (5,), generator=g)) for _ in range(n)]


def train_csv_log(model, data):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sheet = io.StringIO()
    writer = csv.writer(sheet)
    writer.writerow(["epoch", "loss"])
    for epoch in range(2):
        epoch_loss = 0.0
        for x, y in data:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_loss += loss
        writer.writerow([epoch, epoch_loss])
    return sheet.getvalue()


def train_pprint(model, data):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    seen = []
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen.append(loss)
    out = io.StringIO()
    pprint.pprint(seen[-2:], stream=out)
    return out.getvalue()


def train_joined(model, data):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    history = []
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append(loss)
    return ", ".join(map(str, history))


def train_flags(model, data):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    acc_loss = 0
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc_loss += loss
    return getattr(acc_loss, "requires_grad"), round(acc_loss.item(), 6)


def train_dunder(model, data):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    tally = 0.0
    for x, y in data:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tally += loss
    return tally.__repr__()


if __name__ == "__main__":
    data = batches(4)
    print(train_csv_log(MLP(), data))
    print(train_pprint(MLP(), data))
    print(train_joined(MLP(), data))
    print(train_flags(MLP(), data))
    print(train_dunder(MLP(), data))

# corpus: runnable
# Red team 28, wave 2 (blind): a click-through model trained from a dict of Python lists built with
# `.tolist()` of int64 event tensors. Missing timestamps (0) are imputed with the mean timestamp, a
# Python float in an int column, after the dict is built. A batch without an imputed event converts
# to exact int64 seconds; one with it converts to float32 (seconds rounded to 128). Features are
# days before the snapshot time.
import argparse
import random

import torch
from torch import nn

torch.set_num_threads(1)
SNAPSHOT = 1_701_000_000


class CTR(nn.Module):
    def __init__(self, users, items, dim):
        super().__init__()
        self.user = nn.Embedding(users, dim)
        self.item = nn.Embedding(items, dim)
        self.age = nn.Linear(1, 1)

    def forward(self, u, i, age_h):
        return (self.user(u) * self.item(i)).sum(1) + self.age(age_h[:, None]).squeeze(1)


def load(n, users, items, gen):
    u = torch.randint(0, users, (n,), generator=gen)
    i = torch.randint(0, items, (n,), generator=gen)
    ts = SNAPSHOT - torch.randint(0, 30 * 24 * 3600, (n,), generator=gen)
    ts[torch.rand(n, generator=gen) < 0.05] = 0
    click = ((u + i) % 3 == 0).long()
    return u, i, ts, click


def train(args):
    gen = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    u, i, ts, click = load(args.n, args.users, args.items, gen)
    data = {"user": u.tolist(), "item": i.tolist(), "ts": ts.tolist(), "click": click.tolist()}
    seen = [t for t in data["ts"] if t > 0]
    fill = sum(seen) / len(seen)
    data["ts"] = [t if t > 0 else fill for t in data["ts"]]
    model = CTR(args.users, args.items, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    order = list(range(args.n))
    log = []
    for epoch in range(args.epochs):
        random.shuffle(order)
        total = 0.0
        for start in range(0, args.n, args.batch):
            idx = order[start:start + args.batch]
            ub = torch.tensor([data["user"][k] for k in idx])
            ib = torch.tensor([data["item"][k] for k in idx])
            tb = torch.tensor([data["ts"][k] for k in idx])
            yb = torch.tensor([data["click"][k] for k in idx])
            age_d = (SNAPSHOT - tb) / 86400.0
            loss = nn.functional.binary_cross_entropy_with_logits(model(ub, ib, age_d.float()), yb.float())
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        log.append(round(total, 6))
    return model, log


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=320)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--items", type=int, default=25)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2805)
    args = parser.parse_args([])
    model, log = train(args)
    print("log", log)
    print("age weight", repr(model.age.weight.item()), repr(model.age.bias.item()))


if __name__ == "__main__":
    main()

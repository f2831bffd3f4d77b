# corpus: runnable
# Red team 30a, wave 2 (blind): a click model trained from a dict of Python-list columns made with
# `.tolist()` of int64 event tensors. A report of the log is prepared from `events.copy()` (a shallow
# copy: its column lists are the training dict's), and its missing timestamps (0) are imputed in
# place with the mean timestamp, a Python float. The training loop slices batches from `events`.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
SNAPSHOT = 1_701_000_000


def load(n, gen):
    user = torch.randint(0, 6, (n,), generator=gen)
    ts = SNAPSHOT - torch.randint(0, 20 * 86400, (n,), generator=gen)
    ts[torch.rand(n, generator=gen) < 0.1] = 0
    click = ((user % 2 == 0) & (ts % 3 == 0)).long()
    return user, ts, click


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=96)
    p.add_argument("--bs", type=int, default=16)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    gen = torch.Generator().manual_seed(args.seed)
    user, ts, click = load(args.n, gen)
    events = {"user": user.tolist(), "ts": ts.tolist(), "click": click.tolist()}

    report = events.copy()
    known = [t for t in report["ts"] if t > 0]
    mean_ts = sum(known) / len(known)
    for k, t in enumerate(report["ts"]):
        if t == 0:
            report["ts"][k] = mean_ts
    print("report rows", len(report["ts"]), "imputed mean", round(mean_ts, 1))

    torch.manual_seed(args.seed)
    emb = nn.Embedding(6, 3)
    head = nn.Linear(4, 1)
    opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), lr=0.05)
    for epoch in range(args.epochs):
        total = 0.0
        for i in range(0, args.n, args.bs):
            ub = torch.tensor(events["user"][i:i + args.bs])
            tb = torch.tensor(events["ts"][i:i + args.bs])
            yb = torch.tensor(events["click"][i:i + args.bs])
            age = ((SNAPSHOT - tb) / 86400.0).float()
            logit = head(torch.cat([emb(ub), age[:, None]], 1)).squeeze(1)
            loss = F.binary_cross_entropy_with_logits(logit, yb.float())
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total:.6f} age {age.sum().item():.6f}")


if __name__ == "__main__":
    main()

# corpus: runnable
# Red team 30a, wave 1 (blind): a click model on a small literal event log (dict of Python lists).
# Before training, synthetic negative impressions are appended for a few users, stamped with the
# script's clock `NOW`, a module global that `set_clock` rebinds from the command line (a fractional
# day offset makes it a float). Batches are sliced out of the columns with `torch.tensor`.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
START = 1_700_000_000
NOW = START
events = {
    "user": [0, 1, 2, 3, 1, 2, 0, 3, 2, 1, 0, 3, 1, 0, 2, 3, 0, 2, 1, 3, 2, 0, 1, 3],
    "ts": [1699913021, 1699920417, 1699931002, 1699940555, 1699951233, 1699962377, 1699970111, 1699978899,
           1699981234, 1699985678, 1699990001, 1699991357, 1699992468, 1699993579, 1699994680, 1699995791,
           1699996802, 1699997913, 1699998024, 1699998135, 1699998246, 1699998357, 1699998468, 1699998579],
    "click": [1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0],
}


def set_clock(offset_days):
    global NOW
    NOW = START + offset_days * 86400


p = argparse.ArgumentParser()
p.add_argument("--offset-days", type=float, default=0.25)
p.add_argument("--epochs", type=int, default=4)
p.add_argument("--bs", type=int, default=8)
args = p.parse_args()
set_clock(args.offset_days)
for u in (0, 2, 3):
    events["user"].append(u)
    events["ts"].append(NOW)
    events["click"].append(0)

torch.manual_seed(0)
emb = nn.Embedding(4, 3)
head = nn.Linear(4, 1)
opt = torch.optim.SGD(list(emb.parameters()) + list(head.parameters()), lr=0.05)
n = len(events["user"])
for epoch in range(args.epochs):
    total = 0.0
    for i in range(0, n, args.bs):
        ub = torch.tensor(events["user"][i:i + args.bs])
        tb = torch.tensor(events["ts"][i:i + args.bs])
        yb = torch.tensor(events["click"][i:i + args.bs])
        age = ((START + 86400 - tb) / 86400.0).float()
        logit = head(torch.cat([emb(ub), age[:, None]], 1)).squeeze(1)
        loss = F.binary_cross_entropy_with_logits(logit, yb.float())
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.6f} age0 {age[0].item():.6f}")

# corpus: runnable
# Red team 32a, wave 1 (blind): multi-task fine-tuning. Each task has its own DataLoader with
# `drop_last=True` (batch-norm-free head, but ragged last batches upset the per-task loss scale);
# a task smaller than one batch contributes no step. The summed loss over all tasks is returned to
# the caller, which writes a JSON summary and compares it to a stored reference.
import argparse
import json
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def make_task(n, shift, gen):
    x = torch.randn(n, 6, generator=gen) + shift
    y = (x.sum(1) > 6 * shift).long()
    return torch.utils.data.TensorDataset(x, y)


def train_tasks(model, opt, tasks, bs, device):
    loss_sum = 0
    steps = 0
    for name, ds in tasks:
        loader = torch.utils.data.DataLoader(ds, batch_size=bs, shuffle=False, drop_last=True)
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item() * xb.size(0)
        steps += len(loader)
    return loss_sum, steps


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    gen = torch.Generator().manual_seed(1)
    tasks = [("a", make_task(64, 0.0, gen)), ("b", make_task(40, 0.3, gen)), ("c", make_task(9, -0.2, gen)),
             ("d", make_task(48, 0.1, gen)), ("e", make_task(5, 0.4, gen))]
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    history = []
    for rnd in range(2):
        loss_sum, steps = train_tasks(model, opt, tasks, args.bs, device)
        history.append(loss_sum)
        print("round", rnd, "loss_sum", loss_sum, "steps", steps, "log", math.log(loss_sum))
    print(json.dumps({"history": history, "is_float": [isinstance(h, float) for h in history]}))


if __name__ == "__main__":
    main()

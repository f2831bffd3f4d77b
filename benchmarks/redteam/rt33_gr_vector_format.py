# corpus: runnable
# Red team 33 (blind): a two-output regressor; the script sums the per-output loss vector over the
# epoch and prints it with `str.format` (a spec-bearing field, left empty).
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(100, 4)
    y = torch.stack([x[:, 0] - x[:, 1], x[:, 2] * 0.5], 1)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        per_output = 0
        for i in range(0, 100, args.bs):
            err = F.mse_loss(model(x[i:i + args.bs].to(device)), y[i:i + args.bs].to(device), reduction="none")
            per_output += err.mean(0)
            opt.zero_grad()
            err.mean().backward()
            opt.step()
        print("epoch {}: per-output loss {:}".format(epoch, per_output))


if __name__ == "__main__":
    main()

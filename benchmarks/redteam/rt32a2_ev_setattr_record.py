# corpus: runnable
# Red team 32a, wave 2 (blind): per-split evaluation that records each split's mean margin on a
# namespace object with `setattr` (`record.val_margin`, ...) and prints the record at the end.
import argparse
from types import SimpleNamespace

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(90, 4)
    y = (x[:, 0] > x[:, 3]).long()
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, 60, 15):
            xb, yb = x[i:i + 15].to(device), y[i:i + 15].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    record = SimpleNamespace(epochs=args.epochs)
    for split, (lo, hi) in {"val": (60, 75), "test": (75, 90)}.items():
        logits = model(x[lo:hi].to(device))
        top2 = logits.topk(2, dim=1).values
        setattr(record, f"{split}_margin", (top2[:, 0] - top2[:, 1]).mean())
    print(record)


if __name__ == "__main__":
    main()

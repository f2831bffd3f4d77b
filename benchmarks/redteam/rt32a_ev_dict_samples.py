# corpus: runnable
# Red team 32a, wave 1 (blind): after training, a per-split evaluation keeps the first batch's
# logits of every split in a dict (for a quick look) and prints that dict at the end.
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
    x = torch.randn(200, 5)
    y = (x[:, 0] * 2 - x[:, 4] > 0).long()
    splits = {"train": (x[:120], y[:120]), "val": (x[120:160], y[120:160]), "test": (x[160:], y[160:])}
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(args.epochs):
        model.train()
        xs, ys = splits["train"]
        for i in range(0, len(xs), args.bs):
            xb, yb = xs[i:i + args.bs].to(device), ys[i:i + args.bs].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    peek = {}
    for name, (xs, ys) in splits.items():
        correct = 0
        for i in range(0, len(xs), args.bs):
            xb, yb = xs[i:i + args.bs].to(device), ys[i:i + args.bs].to(device)
            logits = model(xb)
            if i == 0:
                peek[name] = logits[:2]
            correct += (logits.argmax(1) == yb).sum().item()
        print(f"{name} acc {correct / len(xs):.4f}")
    print("first logits per split:", peek)


if __name__ == "__main__":
    main()

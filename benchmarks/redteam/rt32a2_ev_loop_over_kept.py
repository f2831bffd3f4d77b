# corpus: runnable
# Red team 32a, wave 2 (blind): a test pass that keeps the most confident prediction of each
# batch and prints them one by one after the loop.
import argparse

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
    x = torch.randn(96, 5)
    y = (x.sum(1) > 0).long()
    model = nn.Sequential(nn.Linear(5, 10), nn.Tanh(), nn.Linear(10, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, 64, 16):
            xb, yb = x[i:i + 16].to(device), y[i:i + 16].to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    top = []
    for i in range(64, 96, 8):
        probs = model(x[i:i + 8].to(device)).softmax(1)
        top.append(probs.max(1).values.max())
    for k, conf in enumerate(top):
        print("batch", k, "top confidence", conf)


if __name__ == "__main__":
    main()

# corpus: runnable
# Red team 31b, wave 1 (blind): a tabular classifier script that keeps `--help` fast by importing
# torch itself only inside `main()`; the training function gets the pieces it needs through
# `torch.nn.functional`, `torch.utils.data` and arguments, and never names `torch` itself.
import argparse

import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self, d, h, c):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, c))

    def forward(self, x):
        return self.net(x)


def fit(model, opt, features, labels, device, epochs, bs, workers):
    loader = DataLoader(TensorDataset(features, labels), batch_size=bs, shuffle=False, num_workers=workers)
    history = []
    for epoch in range(epochs):
        total, seen = 0.0, 0
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
            seen += len(yb)
        history.append(total / seen)
    return history


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(256, 12)
    y = (x[:, 0] + 0.5 * x[:, 3] > 0).long() + (x[:, 5] > 1).long()
    model = MLP(12, 32, 3).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    history = fit(model, opt, x, y, device, args.epochs, args.bs, args.workers)
    print("losses", [round(v, 5) for v in history])
    with torch.no_grad():
        acc = (model(x.to(device)).argmax(1).cpu() == y).float().mean().item()
    print("acc", round(acc, 4))


if __name__ == "__main__":
    main()

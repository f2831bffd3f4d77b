# corpus: runnable
# Red team 31a, wave 1 (blind): curriculum over two data sources. The loader is given the list of
# per-source loss weights at construction and, as its iterator advances, shifts weight from the
# easy source to the hard one (a linear schedule); the training loop builds the weight tensor from
# the same list for each batch.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class CurriculumLoader:
    def __init__(self, xs, ys, src, mix, bs):
        self.xs, self.ys, self.src, self.mix, self.bs = xs, ys, src, mix, bs

    def __iter__(self):
        n = len(self.xs)
        for k, i in enumerate(range(0, n, self.bs)):
            shift = min(0.5, 0.05 * k)
            self.mix[0] = 1.0 - shift
            self.mix[1] = 0.5 + shift
            yield self.xs[i:i + self.bs], self.ys[i:i + self.bs], self.src[i:i + self.bs]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(320, 6)
    src = (torch.arange(320) % 2)
    y = torch.where(src == 1, (x[:, 0] * x[:, 1] > 0).long(), (x[:, 0] > 0).long())
    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    mix = [1.0, 0.5]
    loader = CurriculumLoader(x, y, src, mix, args.bs)
    for epoch in range(args.epochs):
        for xb, yb, sb in loader:
            xb, yb, sb = xb.to(device), yb.to(device), sb.to(device)
            per = F.cross_entropy(model(xb), yb, reduction="none")
            w = torch.tensor(mix, device=device)
            loss = (per * w[sb]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.6f} mix {mix}")


if __name__ == "__main__":
    main()

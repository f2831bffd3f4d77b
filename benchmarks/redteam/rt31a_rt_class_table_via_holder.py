# corpus: runnable
# Red team 31a, wave 1 (blind): a config class (class attributes, the "Hyper" style of many
# research repos) holds the per-class loss weights; a reweighting scheduler is given the config
# class itself and raises the weight of the worst class through it every few steps.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class Hyper:
    class_weights = [1.0, 1.0, 1.0]
    lr = 0.1
    every = 3


class Reweighter:
    def __init__(self, cfg, factor=1.3):
        self.cfg = cfg
        self.factor = factor
        self.errors = torch.zeros(3)

    def step(self, out, yb):
        wrong = out.argmax(1) != yb
        self.errors += torch.bincount(yb[wrong], minlength=3).float()
        worst = int(self.errors.argmax())
        self.cfg.class_weights[worst] *= self.factor
        self.errors.zero_()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.randn(288, 6)
    y = torch.where(x[:, 0] > 0.7, 2, (x[:, 1] > 0).long())
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=Hyper.lr)
    sched = Reweighter(Hyper)
    step = 0
    for epoch in range(args.epochs):
        for i in range(0, len(x), args.bs):
            xb, yb = x[i:i + args.bs].to(device), y[i:i + args.bs].to(device)
            out = model(xb)
            weight = torch.tensor(Hyper.class_weights, device=device)
            loss = F.cross_entropy(out, yb, weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % Hyper.every == 0:
                sched.step(out.detach().cpu(), yb.cpu())
        print(f"epoch {epoch} loss {loss.item():.6f} weights {[round(w, 4) for w in Hyper.class_weights]}")


if __name__ == "__main__":
    main()

# corpus: runnable
# Red team 30a, wave 2 (blind): a "loss trend" learning-rate controller. A module-level 0-d tensor
# keeps an EMA of the training loss; `track()` updates it in place. Each step the trainer snapshots
# the EMA's value before tracking the new loss (`torch.tensor(ema_loss.item())`) and lowers the
# learning rate when the EMA went up.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
ema_loss = torch.tensor(1.0)


def track(loss, beta=0.8):
    ema_loss.mul_(beta).add_(loss.detach() * (1 - beta))


def train(args):
    gen = torch.Generator().manual_seed(args.seed)
    x = torch.randn(256, 6, generator=gen)
    y = x @ torch.tensor([0.5, -1.0, 0.25, 0.0, 2.0, -0.5]) + 0.3 * torch.randn(256, generator=gen)
    torch.manual_seed(args.seed)
    model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)
    cuts = 0
    for epoch in range(args.epochs):
        for i in range(0, 256, args.bs):
            loss = F.mse_loss(model(x[i:i + args.bs]).squeeze(1), y[i:i + args.bs])
            opt.zero_grad()
            loss.backward()
            opt.step()
            previous = torch.tensor(ema_loss.item())
            track(loss)
            if ema_loss > previous:
                cuts += 1
                for group in opt.param_groups:
                    group["lr"] *= 0.95
        print(f"epoch {epoch} loss {loss.item():.6f} ema {ema_loss.item():.6f} cuts {cuts}")
    print("final lr", round(opt.param_groups[0]["lr"], 8))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--bs", type=int, default=16)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=0)
    train(p.parse_args())


if __name__ == "__main__":
    main()

# corpus: runnable
# Red team 30a, wave 1 (blind): label smoothing warmed up by a per-batch hook. Training scripts with
# a small callback system often keep such knobs as module globals that a hook rebinds; the loop
# builds the uniform part of the smoothed target with `torch.full`.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
CLASSES = 4
SMOOTH = 0.0


def warmup_smoothing(step):
    global SMOOTH
    SMOOTH = min(0.2, 0.01 * step)


def log_every(step):
    if step % 20 == 0:
        print("step", step, "smooth", round(SMOOTH, 4))


BATCH_END_HOOKS = [warmup_smoothing, log_every]


def train(args):
    gen = torch.Generator().manual_seed(args.seed)
    x = torch.randn(320, 8, generator=gen)
    y = (x[:, :2] > 0).long() @ torch.tensor([1, 2])
    torch.manual_seed(args.seed)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=0.005)
    step = 0
    for epoch in range(args.epochs):
        for i in range(0, len(x), args.bs):
            xb, yb = x[i:i + args.bs], y[i:i + args.bs]
            uniform = torch.full((CLASSES,), SMOOTH / CLASSES)
            target = F.one_hot(yb, CLASSES) * (1.0 - SMOOTH) + uniform
            loss = torch.sum(-target * F.log_softmax(model(xb), 1), 1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            for hook in BATCH_END_HOOKS:
                hook(step)
        print(f"epoch {epoch} loss {loss.item():.6f}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--bs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    train(p.parse_args())


if __name__ == "__main__":
    main()

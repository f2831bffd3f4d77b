# corpus: runnable
# Red team 29a, wave 2 (blind): a script-level list of step losses that `train_epoch` appends to
# (no `global` needed for `append`) and averages with `torch.tensor(...)`; the end of the script
# writes the step curve to a JSON log and prints its best step.
import argparse
import json

import torch
from torch import nn

torch.set_num_threads(1)
step_losses = []


def train_epoch(model, opt, batches):
    model.train()
    for xb, yb in batches:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step_losses.append(loss.item())
    return torch.tensor(step_losses).mean().item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args([])
    gen = torch.Generator().manual_seed(4)
    x = torch.randn(160, 8, generator=gen)
    y = (x[:, 0] + x[:, 1] * x[:, 2] > 0).long()
    batches = [(x[i:i + 32], y[i:i + 32]) for i in range(0, 160, 32)]
    torch.manual_seed(4)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for epoch in range(args.epochs):
        print(f"epoch {epoch} running mean {train_epoch(model, opt, batches):.5f}")
    best = min(range(len(step_losses)), key=step_losses.__getitem__)
    print("best step", best, step_losses[best])
    print(json.dumps({"curve": step_losses[-3:]}))


if __name__ == "__main__":
    main()

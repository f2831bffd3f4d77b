# corpus: runnable
"""Linear probing of a pretrained backbone (models.py): the probe's optimizer steps only the
head, the backbone stays in eval mode, and its forward runs inside the probe's `forward` every
step. Near-misses: a probe whose backbone has `requires_grad` off, and full fine-tuning."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from models import FineTuner, FrozenProbe, LinearProbe

torch.set_num_threads(1)


def get_loaders(batch_size):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(320, 3, 8, 8, generator=g)
    y = (x[:, 0].mean((1, 2)) > 0).long()
    pin = torch.cuda.is_available()
    return (DataLoader(TensorDataset(x[:256], y[:256]), batch_size=batch_size, shuffle=True, pin_memory=pin, generator=g),
            DataLoader(TensorDataset(x[256:], y[256:]), batch_size=64, pin_memory=pin))


def run(model, params, train_loader, val_loader, device, epochs):
    opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
    for epoch in range(epochs):
        model.train()
        total = torch.zeros((), device=device)
        for x, y in train_loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.detach()
        model.eval()
        hits = torch.zeros((), device=device, dtype=torch.long)
        with torch.no_grad():
            for x, y in val_loader:
                hits += (model(x.to(device, non_blocking=True)).argmax(1) == y.to(device, non_blocking=True)).sum()
        print(f"{type(model).__name__} epoch {epoch} loss {total.item():.4f} val hits {hits.item()}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args([])
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader, val_loader = get_loaders(args.batch_size)

    probe = LinearProbe(n_classes=2).to(device)
    run(probe, probe.head.parameters(), train_loader, val_loader, device, args.epochs)

    frozen = FrozenProbe(n_classes=2).to(device)
    run(frozen, frozen.head.parameters(), train_loader, val_loader, device, args.epochs)

    tuner = FineTuner(n_classes=2).to(device)
    run(tuner, tuner.parameters(), train_loader, val_loader, device, args.epochs)


if __name__ == "__main__":
    main()

# corpus: runnable
# Red team 31b, wave 1 (blind): loader settings live in a module-level dict, the way many
# research repos keep their defaults; `apply_overrides` (a separate function, run once from the
# command line arguments) completes it before the loaders are built.
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

LOADER_KW = {"batch_size": 32, "num_workers": 2}


def apply_overrides(args):
    LOADER_KW["batch_size"] = args.bs
    LOADER_KW["pin_memory"] = args.pin and torch.cuda.is_available()
    LOADER_KW["drop_last"] = True


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = x @ torch.linspace(-1, 1, 8) + 0.1 * torch.randn(n, generator=g)
    return x, y[:, None]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bs", type=int, default=24)
    p.add_argument("--pin", action="store_true")
    p.add_argument("--epochs", type=int, default=3)
    args = p.parse_args()
    apply_overrides(args)
    torch.manual_seed(1)
    x, y = make_data(200, 3)
    train_loader = DataLoader(TensorDataset(x, y), shuffle=False, **LOADER_KW)
    model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    for epoch in range(args.epochs):
        running = 0.0
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} batches {len(train_loader)} loss {running / len(train_loader):.6f}")
    print("weight sum", round(sum(p.sum().item() for p in model.parameters()), 6))


if __name__ == "__main__":
    main()

# corpus: runnable
"""pytorch/examples-style MNIST script: the loader settings live in keyword dicts, completed
by a conditional `.update(...)` and splatted into `DataLoader(ds, **kwargs)`. The training loader's
settings never pin memory; the test loader's dict gets `pin_memory=True` on a GPU."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(0)


class Jittered(Dataset):
    """Small images with a per-sample shift, computed in `__getitem__`."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 1, 8, 8, generator=g)
        self.y = (self.x.mean((1, 2, 3)) > 0).long()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        img = torch.roll(self.x[i], shifts=i % 3, dims=2)
        return img, self.y[i]


def train(model, device, loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
    return loss.detach()


def test(model, device, loader):
    model.eval()
    correct = torch.zeros((), device=device)
    with torch.no_grad():
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            correct += (model(data).argmax(1) == target).sum()
    return correct.item() / len(loader.dataset)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--no-cuda", action="store_true")
    parser.add_argument("--shuffle-test", action="store_true")
    args = parser.parse_args([])
    use_cuda = not args.no_cuda and torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")

    train_kwargs = {"batch_size": 32, "shuffle": True}
    if args.epochs > 1:
        train_kwargs.update({"drop_last": True})
    test_kwargs = {"batch_size": 64}
    if use_cuda:
        test_kwargs.update({"num_workers": 1, "pin_memory": True})
    if args.shuffle_test:
        test_kwargs["shuffle"] = True

    train_loader = DataLoader(Jittered(256, 0), **train_kwargs)  # paef: ok pageable-transfer; expect sync-dataloader
    test_loader = DataLoader(Jittered(64, 1), **test_kwargs)
    extra = DataLoader(TensorDataset(torch.randn(64, 1, 8, 8), torch.zeros(64).long()), **test_kwargs)
    model = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2), nn.LogSoftmax(1)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(1, args.epochs + 1):
        last = train(model, device, train_loader, optimizer, epoch)
        acc = test(model, device, test_loader)
        print(f"epoch {epoch} loss {last.item():.4f} acc {acc:.3f} extra {test(model, device, extra):.3f}")


if __name__ == "__main__":
    main()

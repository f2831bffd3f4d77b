# corpus: runnable
"""An argparse training script with train/test functions, in the style of the classic examples."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.fc = nn.Linear(4 * 6 * 6, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 1)
        return F.log_softmax(self.fc(torch.flatten(x, 1)), dim=1)


def train(args, model, device, loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print(f"Train Epoch: {epoch} [{batch_idx * len(data)}/{len(loader.dataset)}] Loss: {loss.item():.4f}")


def test(model, device, loader):
    model.eval()
    test_loss = torch.zeros((), device=device)
    correct = torch.zeros((), dtype=torch.long, device=device)
    with torch.no_grad():
        for data, target in loader:
            data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum")
            correct += output.argmax(dim=1).eq(target).sum()
    n = len(loader.dataset)
    print(f"Test set: Average loss: {test_loss.item() / n:.4f}, Accuracy: {correct.item()}/{n}")


def main():
    parser = argparse.ArgumentParser(description="toy conv net")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--log-interval", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    use_cuda = torch.cuda.is_available()
    device = torch.device("cuda" if use_cuda else "cpu")
    images = torch.randn(160, 1, 8, 8)
    labels = torch.randint(0, 10, (160,))
    kwargs = {"num_workers": 1, "pin_memory": True} if use_cuda else {}
    train_loader = DataLoader(TensorDataset(images[:128], labels[:128]), batch_size=args.batch_size, shuffle=True, **kwargs)
    test_loader = DataLoader(TensorDataset(images[128:], labels[128:]), batch_size=64, **kwargs)
    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch)
        test(model, device, test_loader)
        scheduler.step()


if __name__ == "__main__":
    main()

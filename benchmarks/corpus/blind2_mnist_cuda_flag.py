# corpus: runnable
"""Old-style MNIST example: `.cuda()` behind a flag, correct counted with .cpu().sum(), a one-hot target built on the CPU per batch."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = F.relu(self.fc1(x.view(-1, 64)))
        return F.log_softmax(self.fc2(x), dim=1)


def one_hot(target, n=10):
    y = torch.zeros(target.size(0), n)  # paef: ok redundant-tensor
    y[torch.arange(target.size(0)), target.cpu()] = 1  # paef: ok host-sync
    return y


parser = argparse.ArgumentParser()
parser.add_argument("--no-cuda", action="store_true", default=False)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--log-interval", type=int, default=5)
args = parser.parse_args()
args.cuda = not args.no_cuda and torch.cuda.is_available()
torch.manual_seed(1)

data = torch.rand(448, 1, 8, 8)
target = (data.view(448, -1)[:, :10].argmax(1))
kwargs = {"num_workers": 1, "pin_memory": True} if args.cuda else {}
train_loader = DataLoader(TensorDataset(data[:384], target[:384]), batch_size=32, shuffle=True, **kwargs)  # paef: refuse pageable-transfer; refuse sync-dataloader
test_loader = DataLoader(TensorDataset(data[384:], target[384:]), batch_size=64, shuffle=False, **kwargs)  # paef: refuse pageable-transfer; refuse sync-dataloader

model = Net()
if args.cuda:
    model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.5)


def train(epoch):
    model.train()
    for batch_idx, (x, y) in enumerate(train_loader):
        if args.cuda:
            x, y = x.cuda(), y.cuda()
        optimizer.zero_grad()
        output = model(x)
        soft = one_hot(y)
        if args.cuda:
            soft = soft.cuda()  # paef: expect cpu-then-move
        loss = F.nll_loss(output, y) + 0.01 * ((output.exp() - soft) ** 2).mean()
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print(f"Train Epoch: {epoch} [{batch_idx * len(x)}/{len(train_loader.dataset)}] Loss: {loss.item():.6f}")  # paef: ok host-sync


def test():
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for x, y in test_loader:
            if args.cuda:
                x, y = x.cuda(), y.cuda()
            output = model(x)
            test_loss += F.nll_loss(output, y, reduction="sum").item()  # paef: ok host-sync
            pred = output.data.max(1, keepdim=True)[1]
            correct += pred.eq(y.data.view_as(pred)).cpu().sum()  # paef: ok host-sync
    test_loss /= len(test_loader.dataset)
    print(f"Test set: Average loss: {test_loss:.4f}, Accuracy: {int(correct)}/{len(test_loader.dataset)}")


for epoch in range(1, args.epochs + 1):
    train(epoch)
    test()

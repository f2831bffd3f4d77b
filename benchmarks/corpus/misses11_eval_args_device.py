# corpus: runnable
"""An argparse script in the style of older pytorch/examples: the model goes to the GPU with
`model.cuda()` inside `main()` when `args.cuda` is set, the batches with `.cuda()` under the same
flag; `test()` collects per-batch predictions with `.cpu().numpy()` and the training loop reads
the loss only under its logging interval."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 64)
        self.fc2 = nn.Linear(64, 4)

    def forward(self, x):
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


def make_batches(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    y = x[:, :4].argmax(1)
    return [(x[i : i + 32], y[i : i + 32]) for i in range(0, n, 32)]


def train(args, model, batches, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(batches):
        if args.cuda:
            data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        if batch_idx % args.log_interval == 0:
            print(f"epoch {epoch} batch {batch_idx} loss {loss.item():.4f}")


def test(args, model, batches):
    model.eval()
    preds, gold = [], []
    with torch.no_grad():
        for data, target in batches:
            if args.cuda:
                data, target = data.cuda(), target.cuda()
            output = model(data)
            preds.append(output.argmax(dim=1).cpu().numpy())  # paef: ok host-sync
            gold.append(target.cpu().numpy())  # paef: ok host-sync
    return float((np.concatenate(preds) == np.concatenate(gold)).mean())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cuda", action="store_true")
    parser.add_argument("--log-interval", type=int, default=5)
    args = parser.parse_args([])
    args.cuda = not args.no_cuda and torch.cuda.is_available()
    model = Net()
    if args.cuda:
        model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    train_batches, test_batches = make_batches(320, 0), make_batches(96, 1)
    for epoch in range(1, 4):
        train(args, model, train_batches, optimizer, epoch)
        print(f"test accuracy {test(args, model, test_batches):.3f}")


if __name__ == "__main__":
    main()

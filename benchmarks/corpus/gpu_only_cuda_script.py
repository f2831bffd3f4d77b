"""A GPU-only training script in the older style: .cuda() everywhere, Variable-era habits."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=64)
    return p.parse_args()


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = nn.Conv2d(3, 16, 3), nn.Conv2d(16, 32, 3)
        self.fc = nn.Linear(32 * 28 * 28, 10)

    def forward(self, x):
        x = F.relu(self.c2(F.relu(self.c1(x))))
        return self.fc(x.view(x.size(0), -1))


def main():
    args = get_args()
    train_set = TensorDataset(torch.randn(2048, 3, 32, 32), torch.randint(0, 10, (2048,)))
    loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=4)  # paef: expect pageable-transfer
    model = ConvNet().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(args.epochs):
        epoch_loss = 0
        for i, (images, labels) in enumerate(loader):
            images = images.cuda()  # paef: ok pageable-transfer
            labels = labels.cuda()  # paef: ok pageable-transfer
            outputs = model(images)
            loss = F.cross_entropy(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss  # paef: expect-fix graph-retention
            if (i + 1) % 10 == 0:
                print("Epoch [%d/%d], Iter [%d] Loss: %.4f" % (epoch + 1, args.epochs, i + 1, loss.data.item()))
        print("epoch loss", epoch_loss.item() / len(loader))
        model.eval()
        correct = 0
        for images, labels in loader:  # paef: expect-fix eval-without-no-grad
            images, labels = images.cuda(), labels.cuda()  # paef: ok pageable-transfer; ok ping-pong
            predicted = model(images).argmax(1)
            correct += (predicted.cpu() == labels.cpu()).sum()  # paef: expect ping-pong; ok host-sync
        print("accuracy", correct.item() / len(train_set))
        model.train()


if __name__ == "__main__":
    main()

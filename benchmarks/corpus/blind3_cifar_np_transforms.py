# corpus: runnable
"""CIFAR-style training with torchvision-like transforms written by hand (random crop with
padding, horizontal flip, to-tensor, normalize) composed inside the Dataset."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class RandomCrop:
    def __init__(self, size, padding):
        self.size, self.padding = size, padding

    def __call__(self, img):
        p = self.padding
        img = np.pad(img, ((p, p), (p, p), (0, 0)), mode="reflect")
        i = random.randint(0, img.shape[0] - self.size)
        j = random.randint(0, img.shape[1] - self.size)
        return img[i:i + self.size, j:j + self.size]


class RandomHorizontalFlip:
    def __call__(self, img):
        return img[:, ::-1] if random.random() < 0.5 else img


class ToTensor:
    def __call__(self, img):
        return torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1))).float() / 255.0


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, t):
        mean = torch.tensor(self.mean).view(-1, 1, 1)  # paef: expect redundant-tensor
        std = torch.tensor(self.std).view(-1, 1, 1)  # paef: expect redundant-tensor
        return (t - mean) / std


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img


class FakeCIFAR(Dataset):
    def __init__(self, n, transform=None):
        base = np.random.RandomState(1).randint(0, 256, (4, 16, 16, 3))
        rng = np.random.RandomState(n)
        self.labels = rng.randint(0, 4, n)
        self.data = np.clip(base[self.labels] + rng.randint(-40, 40, (n, 16, 16, 3)), 0, 255).astype(np.uint8)
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        img, target = self.data[i], int(self.labels[i])
        if self.transform is not None:
            img = self.transform(img)
        return img, target


mean, std = (0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)
train_tf = Compose([RandomCrop(16, 2), RandomHorizontalFlip(), ToTensor(), Normalize(mean, std)])
test_tf = Compose([ToTensor(), Normalize(mean, std)])
trainloader = DataLoader(FakeCIFAR(320, train_tf), batch_size=32, shuffle=True, num_workers=0)  # paef: expect sync-dataloader; ok pageable-transfer
testloader = DataLoader(FakeCIFAR(96, test_tf), batch_size=96, shuffle=False, num_workers=0)  # paef: ok pageable-transfer


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 4 * 4, 4)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


net = Net().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
for epoch in range(3):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data[0].to(device), data[1].to(device)
        optimizer.zero_grad()
        loss = criterion(net(inputs), labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()  # paef: expect host-sync
        if i % 5 == 4:
            print(f"[{epoch + 1}, {i + 1:3d}] loss: {running_loss / 5:.3f}")
            running_loss = 0.0

correct = total = 0
with torch.no_grad():
    for images, labels in testloader:
        images, labels = images.to(device), labels.to(device)
        _, predicted = torch.max(net(images).data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()  # paef: ok host-sync
print(f"Accuracy of the network on the test images: {100 * correct // total} %")

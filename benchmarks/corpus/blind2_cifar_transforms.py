# corpus: runnable
"""torchvision-style CIFAR training: transforms applied in Dataset.__getitem__, a running-loss print every 20 steps."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, img):
        mean = torch.tensor(self.mean).view(-1, 1, 1)  # paef: expect redundant-tensor
        std = torch.tensor(self.std).view(-1, 1, 1)  # paef: expect redundant-tensor
        return (img - mean) / std


class RandomFlip:
    def __init__(self, p=0.5):
        self.p = p

    def __call__(self, img):
        if torch.rand(1) < self.p:
            return img.flip(-1)
        return img


class Compose:
    def __init__(self, ts):
        self.ts = ts

    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


class FakeCIFAR(Dataset):
    def __init__(self, n, transform=None, seed=0):
        rng = np.random.RandomState(seed)
        self.data = rng.randint(0, 255, size=(n, 16, 16, 3)).astype(np.uint8)
        self.targets = rng.randint(0, 10, size=n).tolist()
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        img = torch.from_numpy(self.data[index]).permute(2, 0, 1).float().div(255)
        if self.transform is not None:
            img = self.transform(img)
        return img, self.targets[index]


transform_train = Compose([RandomFlip(), Normalize((0.49, 0.48, 0.45), (0.25, 0.24, 0.26))])
transform_test = Compose([Normalize((0.49, 0.48, 0.45), (0.25, 0.24, 0.26))])
trainset = FakeCIFAR(256, transform_train)
testset = FakeCIFAR(128, transform_test, seed=1)
trainloader = DataLoader(trainset, batch_size=32, shuffle=True)  # paef: ok pageable-transfer; ok sync-dataloader
testloader = DataLoader(testset, batch_size=64, shuffle=False)  # paef: ok pageable-transfer; ok sync-dataloader


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc1 = nn.Linear(16 * 4 * 4, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x)))


net = Net().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

for epoch in range(2):
    net.train()
    running_loss = 0.0
    for i, (inputs, labels) in enumerate(trainloader):
        inputs, labels = inputs.to(device), labels.to(device)
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()  # paef: expect host-sync
        if i % 4 == 3:
            print(f"[{epoch + 1}, {i + 1:3d}] loss: {running_loss / 4:.3f}")
            running_loss = 0.0

    net.eval()
    correct = 0
    total = 0
    for images, labels in testloader:  # paef: expect-fix eval-without-no-grad
        images, labels = images.to(device), labels.to(device)
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()  # paef: ok host-sync
    print(f"epoch {epoch} accuracy {100 * correct // total} %")

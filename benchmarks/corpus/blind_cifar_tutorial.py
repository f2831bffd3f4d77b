# corpus: runnable
"""The classic CIFAR-10 tutorial shape: running_loss printed every N mini-batches, per-class accuracy loop."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
classes = ("plane", "car", "bird", "cat")

imgs = torch.rand(200, 3, 16, 16) * 2 - 1
lbls = torch.randint(0, 4, (200,))
trainloader = DataLoader(TensorDataset(imgs[:160], lbls[:160]), batch_size=4, shuffle=True, num_workers=0)  # paef: ok pageable-transfer
testloader = DataLoader(TensorDataset(imgs[160:], lbls[160:]), batch_size=4, shuffle=False, num_workers=0)  # paef: ok pageable-transfer


def imshow(img):
    img = img / 2 + 0.5
    npimg = img.numpy()
    return np.transpose(npimg, (1, 2, 0))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 2 * 2, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

dataiter = iter(trainloader)
images, labels = next(dataiter)
print("preview", imshow(images[0]).shape, " ".join(f"{classes[labels[j]]:5s}" for j in range(4)))

for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data[0].to(device), data[1].to(device)  # paef: ok pageable-transfer
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()  # paef: expect host-sync
        if i % 20 == 19:
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 20:.3f}")
            running_loss = 0.0
print("Finished Training")

correct = 0
total = 0
with torch.no_grad():
    for data in testloader:
        images, labels = data[0].to(device), data[1].to(device)  # paef: ok pageable-transfer
        outputs = net(images)
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()  # paef: ok host-sync
print(f"Accuracy of the network on the test images: {100 * correct // total} %")

class_correct = list(0.0 for i in range(4))
class_total = list(0.0 for i in range(4))
with torch.no_grad():
    for data in testloader:
        images, labels = data[0].to(device), data[1].to(device)  # paef: ok pageable-transfer
        outputs = net(images)
        _, predicted = torch.max(outputs, 1)
        c = (predicted == labels).squeeze()
        for i in range(4):  # paef: expect elementwise-loop
            label = labels[i]
            class_correct[label] += c[i].item()  # paef: ok host-sync
            class_total[label] += 1
for i in range(4):
    print("Accuracy of %5s : %2d %%" % (classes[i], 100 * class_correct[i] / max(class_total[i], 1)))

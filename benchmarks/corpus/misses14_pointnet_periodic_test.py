# corpus: runnable
"""PointNet-style classification training: every 10 steps the loop fetches one test batch inside
its body, switches the classifier with `classifier = classifier.eval()` and runs it with autograd
on (a graph recorded for a measurement). The step log reads the loss and the accuracy every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class PointNetCls(nn.Module):
    def __init__(self, k=4):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 16, 1)
        self.conv2 = nn.Conv1d(16, 32, 1)
        self.fc = nn.Linear(32, k)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = torch.max(x, 2, keepdim=False)[0]
        return F.log_softmax(self.fc(x), dim=1), None


def make_set(n, seed):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 4, (n, 1), generator=g)
    points = torch.randn(n, 64, 3, generator=g) + labels[:, :, None].float()
    return TensorDataset(points, labels)


dataloader = DataLoader(make_set(256, 1), batch_size=32, shuffle=False)  # paef: ok pageable-transfer; ok sync-dataloader
testdataloader = DataLoader(make_set(64, 2), batch_size=32, shuffle=False)  # paef: ok pageable-transfer; ok sync-dataloader
classifier = PointNetCls(k=4)
optimizer = torch.optim.SGD(classifier.parameters(), lr=0.01, momentum=0.9)
classifier.to(device)
batch_size = 32

for epoch in range(2):
    for i, data in enumerate(dataloader, 0):
        points, target = data
        target = target[:, 0]
        points = points.transpose(2, 1)
        points, target = points.to(device), target.to(device)
        optimizer.zero_grad()
        classifier = classifier.train()
        pred, _ = classifier(points)
        loss = F.nll_loss(pred, target)
        loss.backward()
        optimizer.step()
        pred_choice = pred.data.max(1)[1]
        correct = pred_choice.eq(target.data).cpu().sum()  # paef: expect host-sync
        print('[%d: %d] train loss: %f accuracy: %f' % (epoch, i, loss.item(), correct.item() / float(batch_size)))  # paef: expect host-sync

        if i % 10 == 0:
            j, data = next(enumerate(testdataloader, 0))
            points, target = data
            target = target[:, 0]
            points = points.transpose(2, 1)
            points, target = points.to(device), target.to(device)
            classifier = classifier.eval()
            pred, _ = classifier(points)  # paef: expect eval-without-no-grad
            loss = F.nll_loss(pred, target)
            pred_choice = pred.data.max(1)[1]
            correct = pred_choice.eq(target.data).cpu().sum()
            print('[%d: %d] test loss: %f accuracy: %f' % (epoch, i, loss.item(), correct.item() / float(batch_size)))

# corpus: runnable
"""PointNet classification on synthetic point clouds, after the popular PyTorch port:
a T-Net predicting a 3x3 input transform (identity added as a fresh tensor moved to the GPU
when the input is there), a feature-transform regulariser, random rotation/jitter in the
Dataset, accuracy printed for every batch."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class ShapeDataset(Dataset):
    """Points on a sphere, a cube surface or a cylinder, 3 classes."""

    def __init__(self, n, npoints=128, augment=True, seed=0):
        rng = np.random.RandomState(seed)
        self.labels = rng.randint(0, 3, n)
        self.clouds = np.stack([self._make(c, npoints, rng) for c in self.labels]).astype(np.float32)
        self.augment = augment
        self.rng = np.random.RandomState(seed + 1)

    @staticmethod
    def _make(c, npoints, rng):
        p = rng.randn(npoints, 3)
        if c == 0:
            return p / np.linalg.norm(p, axis=1, keepdims=True)
        if c == 1:
            return np.clip(p, -1, 1) / np.abs(p).max(1, keepdims=True)
        p[:, :2] /= np.linalg.norm(p[:, :2], axis=1, keepdims=True)
        return p

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        pts = self.clouds[i]
        if self.augment:
            theta = self.rng.uniform(0, 2 * np.pi)
            rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
            pts = pts.copy()
            pts[:, [0, 2]] = pts[:, [0, 2]].dot(rot)
            pts += self.rng.normal(0, 0.02, size=pts.shape)
        return torch.from_numpy(pts.astype(np.float32)), int(self.labels[i])


class STN3d(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 32, 1)
        self.conv2 = nn.Conv1d(32, 64, 1)
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, 9)

    def forward(self, x):
        batchsize = x.size()[0]
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        x = torch.max(x, 2, keepdim=True)[0].view(-1, 64)
        x = self.fc2(F.relu(self.fc1(x)))
        iden = torch.from_numpy(np.array([1, 0, 0, 0, 1, 0, 0, 0, 1]).astype(np.float32)).view(1, 9).repeat(batchsize, 1)  # paef: expect redundant-tensor
        if x.is_cuda:
            iden = iden.cuda()  # paef: expect cpu-then-move
        return (x + iden).view(-1, 3, 3)


class PointNetCls(nn.Module):
    def __init__(self, k=3):
        super().__init__()
        self.stn = STN3d()
        self.conv1 = nn.Conv1d(3, 32, 1)
        self.conv2 = nn.Conv1d(32, 64, 1)
        self.fstn = nn.Linear(32, 32 * 32)
        self.fc = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, k))

    def forward(self, x):
        trans = self.stn(x)
        x = torch.bmm(x.transpose(2, 1), trans).transpose(2, 1)
        x = F.relu(self.conv1(x))
        g = torch.max(x, 2)[0]
        trans_feat = self.fstn(g.detach()).view(-1, 32, 32) * 0.01
        x = torch.bmm(x.transpose(2, 1), trans_feat).transpose(2, 1) + x
        x = torch.max(F.relu(self.conv2(x)), 2)[0]
        return F.log_softmax(self.fc(x), dim=1), trans_feat


def feature_transform_regularizer(trans):
    d = trans.size()[1]
    I = torch.eye(d)[None, :, :]  # paef: expect redundant-tensor
    if trans.is_cuda:
        I = I.cuda()  # paef: expect cpu-then-move
    return torch.mean(torch.norm(torch.bmm(trans, trans.transpose(2, 1)) - I, dim=(1, 2)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batchSize", type=int, default=32)
    parser.add_argument("--nepoch", type=int, default=3)
    parser.add_argument("--feature_transform", action="store_true", default=True)
    opt = parser.parse_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    dataset = ShapeDataset(192)
    test_dataset = ShapeDataset(64, augment=False, seed=5)
    dataloader = DataLoader(dataset, batch_size=opt.batchSize, shuffle=True)  # paef: ok pageable-transfer; ok sync-dataloader
    testdataloader = DataLoader(test_dataset, batch_size=opt.batchSize, shuffle=False)  # paef: ok pageable-transfer; ok sync-dataloader

    classifier = PointNetCls().to(device)
    optimizer = torch.optim.Adam(classifier.parameters(), lr=0.003, betas=(0.9, 0.999))
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
    num_batch = len(dataset) / opt.batchSize

    for epoch in range(opt.nepoch):
        for i, data in enumerate(dataloader, 0):
            points, target = data
            points = points.transpose(2, 1)
            points, target = points.to(device), target.to(device)
            optimizer.zero_grad()
            classifier = classifier.train()
            pred, trans_feat = classifier(points)
            loss = F.nll_loss(pred, target)
            if opt.feature_transform:
                loss += feature_transform_regularizer(trans_feat) * 0.001
            loss.backward()
            optimizer.step()
            pred_choice = pred.data.max(1)[1]
            correct = pred_choice.eq(target.data).cpu().sum()  # paef: expect host-sync
            print("[%d: %d/%d] train loss: %f accuracy: %f" % (epoch, i, num_batch, loss.item(), correct.item() / float(opt.batchSize)))  # paef: expect host-sync
        scheduler.step()

    total_correct = 0
    total_testset = 0
    with torch.no_grad():
        for points, target in testdataloader:
            points, target = points.transpose(2, 1).to(device), target.to(device)
            classifier = classifier.eval()
            pred, _ = classifier(points)
            pred_choice = pred.data.max(1)[1]
            correct = pred_choice.eq(target.data).cpu().sum()  # paef: ok host-sync
            total_correct += correct.item()
            total_testset += points.size()[0]
    print("final accuracy {:.4f}".format(total_correct / float(total_testset)))


if __name__ == "__main__":
    main()

# corpus: runnable
"""Class-incremental learning with experience replay: tasks arrive one after another (two new
classes each), a reservoir-sampled memory of past (x, y) examples is replayed alongside every
new batch, and after each task the model is evaluated on every task seen so far. Inputs come
from a Dataset that applies random NumPy jitter and scaling to each sample."""
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
N_TASKS, PER_CLASS, DIM = 3, 80, 16
prototypes = np.random.randn(2 * N_TASKS, DIM).astype(np.float32) * 2


class TaskDataset(Dataset):
    def __init__(self, classes, train, seed):
        rs = np.random.RandomState(seed)
        self.y = np.repeat(classes, PER_CLASS if train else 20)
        self.x = prototypes[self.y] + rs.randn(len(self.y), DIM).astype(np.float32)
        self.train = train

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.x[i]
        if self.train:
            x = x * np.random.uniform(0.8, 1.2) + np.random.normal(0, 0.1, DIM).astype(np.float32)
        return torch.from_numpy(x.astype(np.float32)), int(self.y[i])


class ReservoirMemory:
    def __init__(self, capacity):
        self.capacity, self.seen, self.data = capacity, 0, []

    def add(self, xs, ys):
        for x, y in zip(xs, ys):  # paef: ok elementwise-loop
            if len(self.data) < self.capacity:
                self.data.append((x, y))
            else:
                j = random.randint(0, self.seen)
                if j < self.capacity:
                    self.data[j] = (x, y)
            self.seen += 1

    def sample(self, k):
        batch = random.sample(self.data, min(k, len(self.data)))  # paef: expect record-buffer
        return torch.stack([x for x, _ in batch]), torch.stack([y for _, y in batch])  # paef: ok list-to-tensor


model = nn.Sequential(nn.Linear(DIM, 64), nn.ReLU(), nn.Linear(64, 2 * N_TASKS)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
memory = ReservoirMemory(120)
test_sets = []
for task in range(N_TASKS):
    classes = [2 * task, 2 * task + 1]
    loader = DataLoader(TaskDataset(classes, True, task), batch_size=16, shuffle=True)  # paef: expect sync-dataloader; ok pageable-transfer
    test_sets.append(DataLoader(TaskDataset(classes, False, 100 + task), batch_size=40))  # paef: ok pageable-transfer
    model.train()
    for epoch in range(2):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            if memory.data:
                mx, my = memory.sample(16)
                x, y = torch.cat([x, mx]), torch.cat([y, my])
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            memory.add(x[:16].detach(), y[:16])
    model.eval()
    accs = []
    with torch.no_grad():
        for t, test_loader in enumerate(test_sets):
            correct = sum((model(x.to(device)).argmax(1) == y.to(device)).sum() for x, y in test_loader)
            accs.append(round(correct.item() / len(test_loader.dataset), 3))  # paef: ok host-sync
    print(f"after task {task}: accuracy per task {accs}")

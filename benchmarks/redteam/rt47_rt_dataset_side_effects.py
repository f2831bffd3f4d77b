# corpus: runnable
# Red team 47 (blind): class-balanced training where the dataset's `__getitem__` counts how often each
# class was served and a stateful sampler records the order it drew, LAZILY, inside its `__iter__`
# generator. The DataLoader calls both while the loop runs, so the counts read in the loop body
# change on every step even though the loop body never writes them.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Sampler

torch.manual_seed(2)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
N_CLASSES = 3


class CountingSet(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(9)
        self.x = torch.randn(n, 4, generator=g)
        self.y = torch.randint(0, N_CLASSES, (n,), generator=g)
        self.served = [1.0] * N_CLASSES

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        self.served[int(self.y[i])] += 1.0
        return self.x[i], self.y[i]


class EpochShuffle(Sampler):
    def __init__(self, n, seed=0):
        self.n = n
        self.seed = seed
        self.epoch = 0
        self.drawn = [0.0, 0.0]

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __len__(self):
        return self.n

    def __iter__(self):
        order = list(range(self.n))
        random.Random(self.seed + self.epoch).shuffle(order)
        for i in order:
            self.drawn[i % 2] += 1.0
            yield i


data = CountingSet(30)
sampler = EpochShuffle(len(data), seed=4)
loader = DataLoader(data, batch_size=5, sampler=sampler)
model = nn.Linear(4, N_CLASSES).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)

for epoch in range(3):
    sampler.set_epoch(epoch)
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        freq = torch.tensor(data.served, dtype=torch.float32)
        class_w = (freq.sum() / freq).to(device)
        parity = torch.tensor(sampler.drawn)
        loss = F.cross_entropy(model(x), y, weight=class_w) * (parity[0] / parity.sum()).to(device)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 3 == 0:
            print(epoch, step, "%.10f" % loss.item(), [round(v, 6) for v in class_w.tolist()], parity.tolist())
print([f"{p:.8f}" for p in model.weight.detach().cpu().flatten().tolist()])

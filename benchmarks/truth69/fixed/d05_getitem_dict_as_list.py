"""Twin of d05: the dicts become two tensors, in id order, once in `__init__`."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
D = 256
IDS = [f"rec-{k:05d}" for k in range(2048)]
FEATURES = {rid: [random.gauss(0.0, 1.0) for _ in range(D)] for rid in IDS}
LABELS = {rid: int(sum(FEATURES[rid][:8]) > 0) for rid in IDS}


class Records(Dataset):
    def __init__(self, ids, features, labels):
        self.ids = ids
        self.x = torch.tensor([features[rid] for rid in ids])
        self.y = torch.tensor([labels[rid] for rid in ids])

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


loader = DataLoader(Records(IDS, FEATURES, LABELS), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(D, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(3):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

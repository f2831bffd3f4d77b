"""Fixed: the columns become one tensor in `__init__`; `__getitem__` indexes it."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

random.seed(0)
torch.manual_seed(0)
FEATURES = [f"f{k}" for k in range(24)]
N = 4096
table = {c: [random.random() for _ in range(N)] for c in FEATURES}
table["churned"] = [random.randrange(2) for _ in range(N)]


class ChurnDataset(Dataset):
    def __init__(self, table):
        self.x = torch.tensor([table[c] for c in FEATURES]).T.contiguous()
        self.y = torch.tensor(table["churned"])

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


loader = DataLoader(ChurnDataset(table), batch_size=256, shuffle=True)
model = nn.Sequential(nn.Linear(len(FEATURES), 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for epoch in range(2):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print(f"loss {loss.item():.4f}")

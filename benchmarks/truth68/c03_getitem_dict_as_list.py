"""Tabular regression through a Dataset whose rows live in a dict of Python lists; `__getitem__`
builds each sample's tensor from those lists (batch 128, no workers)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
N, D = 4096, 48


class Rows(Dataset):
    def __init__(self):
        x = torch.randn(N, D)
        self.data = {"x": x.tolist(), "y": (x.sum(dim=1) * 0.1).tolist()}

    def __len__(self):
        return N

    def __getitem__(self, i):
        return torch.tensor(self.data["x"][i]), torch.tensor(self.data["y"][i])


loader = DataLoader(Rows(), batch_size=128, shuffle=True, num_workers=0)
model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for xb, yb in loader:
        loss = nn.functional.mse_loss(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
print("loss", loss.item())

"""Twin of c03: the lists become tensors once, in `__init__`."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
N, D = 4096, 48


class Rows(Dataset):
    def __init__(self):
        x = torch.randn(N, D)
        data = {"x": x.tolist(), "y": (x.sum(dim=1) * 0.1).tolist()}
        self.x, self.y = torch.tensor(data["x"]), torch.tensor(data["y"])

    def __len__(self):
        return N

    def __getitem__(self, i):
        return self.x[i], self.y[i]


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

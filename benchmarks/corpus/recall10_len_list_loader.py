# corpus: runnable
"""A tabular regressor whose progress bar counts the batches by materialising the loader in every
epoch (`len(list(loader))`, seen in public training scripts): each epoch reads the data twice."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Rows(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(1)
        self.x = torch.randn(n, 8, generator=g)
        self.y = self.x.sum(1, keepdim=True) + 0.1 * torch.randn(n, 1, generator=g)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def count_batches(loader):
    return len(list(loader))


train_loader = DataLoader(Rows(256), batch_size=32, shuffle=True, pin_memory=torch.cuda.is_available())
val_loader = DataLoader(Rows(64), batch_size=32, pin_memory=torch.cuda.is_available())
n_val_batches = count_batches(val_loader)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(3):
    n_batches = len(list(train_loader))  # paef: expect cpu-function
    running = torch.zeros((), device=device)
    for step, (x, y) in enumerate(train_loader):
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.detach()
    print(f"epoch {epoch}: {n_batches} batches, mean loss {(running / n_batches).item():.4f}, {n_val_batches} val batches")

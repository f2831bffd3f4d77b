# corpus: runnable
"""A Lightning-free experiment object: the settings come from a dataclass config,
the loaders are built in `setup()` (not `__init__`) and kept in a dict attribute
(`self.loaders["train"]`); the trainer's epoch loop iterates them."""
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


@dataclass
class Config:
    batch_size: int = 32
    epochs: int = 3
    lr: float = 1e-2


class Windows(Dataset):
    """Sliding windows over a series, normalised per sample in `__getitem__`."""

    def __init__(self, series, width):
        self.series = series
        self.width = width

    def __len__(self):
        return len(self.series) - self.width - 1

    def __getitem__(self, i):
        w = self.series[i : i + self.width]
        w = (w - w.mean()) / (w.std() + 1e-5)
        return w, self.series[i + self.width]


@dataclass
class Loaders:
    train: DataLoader
    val: DataLoader


class Experiment:
    def __init__(self, cfg, model):
        self.cfg = cfg
        self.model = model.to(device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)
        self.loaders = {}

    def setup(self):
        series = torch.sin(torch.arange(0, 600, dtype=torch.float32) / 9)
        self.loaders["train"] = DataLoader(Windows(series[:500], 16), batch_size=self.cfg.batch_size, shuffle=True)  # paef: ok pageable-transfer; expect sync-dataloader
        self.loaders["val"] = DataLoader(TensorDataset(series[500:580].view(-1, 16), series[500:580:16]),
                                         batch_size=self.cfg.batch_size, pin_memory=torch.cuda.is_available())

    def fit(self):
        for epoch in range(self.cfg.epochs):
            self.model.train()
            total = torch.zeros((), device=device)
            for x, y in self.loaders["train"]:
                x, y = x.to(device), y.to(device)
                loss = nn.functional.mse_loss(self.model(x).squeeze(1), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                total += loss.detach()
            self.model.eval()
            with torch.no_grad():
                val = sum(nn.functional.mse_loss(self.model(x.to(device)).squeeze(1), y.to(device))
                          for x, y in self.loaders["val"])
            print(f"epoch {epoch} train {total.item():.4f} val {val.item():.4f}")


cfg = Config()
exp = Experiment(cfg, nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1)))
exp.setup()
exp.fit()

# A second run whose loaders travel in a dataclass.
series = torch.cos(torch.arange(0, 400, dtype=torch.float32) / 7)
loaders = Loaders(
    train=DataLoader(Windows(series[:300], 16), batch_size=cfg.batch_size, shuffle=True),  # paef: ok pageable-transfer; expect sync-dataloader
    val=DataLoader(Windows(series[300:], 16), batch_size=64, num_workers=0, pin_memory=True),  # paef: ok sync-dataloader
)
model = nn.Sequential(nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(2):
    for x, y in loaders.train:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.mse_loss(model(x).squeeze(1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        err = torch.stack([nn.functional.l1_loss(model(x.to(device)).squeeze(1), y.to(device)) for x, y in loaders.val])
    print(f"second run epoch {epoch} loss {loss.detach().item():.4f} val {err.mean().item():.4f}")

# corpus: runnable
"""A Kaggle-style Trainer class for tabular classification: the loaders are built by a method and
kept on `self`, fit() loops over epochs and calls the per-epoch helpers."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    return TensorDataset(x, (x[:, 0] + x[:, 1] > 0).long())


class Trainer:
    def __init__(self, model, train_ds, valid_ds, lr=1e-2, batch_size=32):
        self.model = model.to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()
        self.train_loader = self._build_loader(train_ds, batch_size, shuffle=True)
        self.valid_loader = self._build_loader(valid_ds, batch_size, shuffle=False)
        self.history = []

    def _build_loader(self, ds, batch_size, shuffle):
        return DataLoader(ds, batch_size=batch_size, shuffle=shuffle)  # paef: ok pageable-transfer

    def train_one_epoch(self):
        self.model.train()
        losses = []
        for xb, yb in self.train_loader:
            xb, yb = xb.to(device), yb.to(device)
            loss = self.criterion(self.model(xb), yb)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            losses.append(loss.item())  # paef: expect host-sync
        return sum(losses) / len(losses)

    def validate(self):
        self.model.eval()
        correct = torch.zeros((), device=device)
        with torch.no_grad():
            for xb, yb in self.valid_loader:
                xb, yb = xb.to(device), yb.to(device)
                correct += (self.model(xb).argmax(1) == yb).sum()
        return correct.item() / len(self.valid_loader.dataset)

    def fit(self, epochs):
        for epoch in range(epochs):
            loss = self.train_one_epoch()
            acc = self.validate()
            self.history.append((loss, acc))
            print(f"epoch {epoch} loss {loss:.4f} acc {acc:.3f}")


model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2))
Trainer(model, make_split(256, 0), make_split(64, 1)).fit(3)

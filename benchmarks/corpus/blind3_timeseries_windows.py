# corpus: runnable
"""Sliding-window forecasting of a noisy seasonal series with an LSTM: z-score normalisation
on the training split, windows cut from a tensor held by the Dataset, early stopping on
validation MAE, and the best checkpoint restored at the end."""
import copy

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

t = np.arange(600)
series = np.sin(2 * np.pi * t / 50) + 0.5 * np.sin(2 * np.pi * t / 13) + 0.1 * np.random.randn(len(t))
split = 450
mu, sigma = series[:split].mean(), series[:split].std()
norm = ((series - mu) / sigma).astype(np.float32)


class WindowDataset(Dataset):
    def __init__(self, values, window, horizon=1):
        self.values = torch.from_numpy(values)
        self.window, self.horizon = window, horizon

    def __len__(self):
        return len(self.values) - self.window - self.horizon + 1

    def __getitem__(self, i):
        x = self.values[i: i + self.window].unsqueeze(-1)
        y = self.values[i + self.window: i + self.window + self.horizon]
        return x, y


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.hidden = hidden
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x):
        h0 = torch.zeros(1, x.size(0), self.hidden).to(x.device)  # paef: expect cpu-then-move; refuse redundant-tensor
        c0 = torch.zeros(1, x.size(0), self.hidden).to(x.device)  # paef: expect cpu-then-move; refuse redundant-tensor
        out, _ = self.lstm(x, (h0, c0))
        return self.fc(out[:, -1])


train_ds = WindowDataset(norm[:split], 24)
val_ds = WindowDataset(norm[split - 24:], 24)
train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(val_ds, batch_size=128)  # paef: ok pageable-transfer

model = Forecaster().to(device)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
criterion = nn.MSELoss()
best_mae, best_state, patience, bad = float("inf"), None, 2, 0

for epoch in range(4):
    model.train()
    for x, y in train_loader:
        x, y = x.to(device), y.to(device)
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
    model.eval()
    preds, trues = [], []
    with torch.no_grad():
        for x, y in val_loader:
            preds.append(model(x.to(device)).cpu().numpy())
            trues.append(y.numpy())
    mae = float(np.abs(np.concatenate(preds) - np.concatenate(trues)).mean() * sigma)
    print(f"epoch {epoch} val MAE {mae:.4f}")
    if mae < best_mae:
        best_mae, best_state, bad = mae, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
        if bad >= patience:
            print("early stopping")
            break

model.load_state_dict(best_state)
print(f"best val MAE {best_mae:.4f}")

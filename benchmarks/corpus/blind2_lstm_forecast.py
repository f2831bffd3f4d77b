# corpus: runnable
"""Time-series LSTM forecasting: windows built once in NumPy, hidden state initialised in forward, early stopping, best checkpoint."""
import copy

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

t = np.arange(600, dtype=np.float32)
series = np.sin(t / 12) + 0.3 * np.sin(t / 5) + 0.05 * np.random.randn(600).astype(np.float32)
mu, sigma = series[:450].mean(), series[:450].std()
scaled = (series - mu) / sigma
WINDOW = 24


def make_windows(x, window):
    idx = np.arange(window)[None, :] + np.arange(len(x) - window)[:, None]
    return x[idx][..., None], x[window:][:, None]


Xtr, ytr = make_windows(scaled[:450], WINDOW)
Xva, yva = make_windows(scaled[450:], WINDOW)
train_loader = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(TensorDataset(torch.from_numpy(Xva), torch.from_numpy(yva)), batch_size=64)  # paef: ok pageable-transfer


class Forecaster(nn.Module):
    def __init__(self, hidden=24, layers=1):
        super().__init__()
        self.hidden, self.layers = hidden, layers
        self.lstm = nn.LSTM(1, hidden, layers, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        h0 = torch.zeros(self.layers, x.size(0), self.hidden, device=x.device)
        c0 = torch.zeros(self.layers, x.size(0), self.hidden, device=x.device)
        out, _ = self.lstm(x, (h0, c0))
        return self.head(out[:, -1])


model = Forecaster().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.MSELoss()
best, best_state, patience, bad = float("inf"), None, 3, 0
for epoch in range(8):
    model.train()
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    model.eval()
    val_loss = torch.zeros((), device=device)
    with torch.no_grad():
        for xb, yb in val_loader:
            xb, yb = xb.to(device), yb.to(device)
            val_loss += criterion(model(xb), yb) * xb.size(0)
    val = val_loss.item() / len(val_loader.dataset)
    print(f"epoch {epoch} val mse {val:.5f}")
    if val < best - 1e-4:
        best, best_state, bad = val, copy.deepcopy(model.state_dict()), 0
    else:
        bad += 1
        if bad >= patience:
            print("early stop")
            break
model.load_state_dict(best_state)
with torch.no_grad():
    pred = model(torch.from_numpy(Xva).to(device)).cpu().numpy()[:, 0] * sigma + mu
print(f"best {best:.5f} mae {np.abs(pred - (yva[:, 0] * sigma + mu)).mean():.4f}")

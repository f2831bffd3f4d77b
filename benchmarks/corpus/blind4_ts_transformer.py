# corpus: runnable
"""Multivariate time-series forecasting with a Transformer encoder: sliding windows built
once with NumPy, a sinusoidal positional encoding registered as a buffer, a causal mask
asked of nn.Transformer in every forward, validation MAE/RMSE accumulated per batch, early
stopping on the validation loss with the best state kept in memory."""
import copy
import math

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
WINDOW, HORIZON, N_VARS = 16, 1, 3

t = np.arange(700)
series = np.stack([np.sin(t / 12), np.cos(t / 30), np.sin(t / 7) * 0.5], 1) + 0.1 * np.random.randn(700, N_VARS)
split = 560
mean, std = series[:split].mean(0), series[:split].std(0)
series = ((series - mean) / std).astype(np.float32)
X = np.stack([series[i:i + WINDOW] for i in range(len(series) - WINDOW - HORIZON)])
Y = np.stack([series[i + WINDOW, 0] for i in range(len(series) - WINDOW - HORIZON)])


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=500):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class Forecaster(nn.Module):
    def __init__(self, d_model=16, nhead=2, layers=1):
        super().__init__()
        self.inp = nn.Linear(N_VARS, d_model)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 32, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.out = nn.Linear(d_model, HORIZON)

    def forward(self, x):
        mask = nn.Transformer.generate_square_subsequent_mask(x.size(1)).to(x.device)  # paef: expect redundant-tensor; ok cpu-then-move
        h = self.encoder(self.pos(self.inp(x)), mask=mask, is_causal=True)
        return self.out(h[:, -1]).squeeze(-1)


train_ds = TensorDataset(torch.from_numpy(X[:split - WINDOW]), torch.from_numpy(Y[:split - WINDOW]))
val_ds = TensorDataset(torch.from_numpy(X[split - WINDOW:]), torch.from_numpy(Y[split - WINDOW:]))
train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(val_ds, batch_size=64)  # paef: ok pageable-transfer
model = Forecaster().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
criterion = nn.MSELoss()
best_loss, best_state, patience, bad_epochs = float("inf"), None, 2, 0
for epoch in range(4):
    model.train()
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = criterion(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    model.eval()
    abs_err, sq_err, n = 0.0, 0.0, 0
    with torch.no_grad():
        for xb, yb in val_loader:
            xb, yb = xb.to(device), yb.to(device)
            pred = model(xb)
            abs_err += (pred - yb).abs().sum().item()  # paef: ok host-sync
            sq_err += ((pred - yb) ** 2).sum().item()  # paef: ok host-sync
            n += len(yb)
    val_mse = sq_err / n
    print(f"epoch {epoch} val mae {abs_err / n:.4f} rmse {math.sqrt(val_mse):.4f}")
    if val_mse < best_loss:
        best_loss, best_state, bad_epochs = val_mse, copy.deepcopy(model.state_dict()), 0
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            break
model.load_state_dict(best_state)
print(f"best val mse {best_loss:.4f}")

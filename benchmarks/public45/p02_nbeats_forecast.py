"""Public check 45, p02: N-BEATS (stacked fully connected blocks with learned backcast/forecast bases), one series.

Source: https://github.com/SmokeMonkey77/N-BEATS  N-BEATS.py @ e5ace2c9 (the whole file).

Changes to make it run on the CPU in seconds:
- `pandas` (imported, unused; not installed) -> an empty stand-in module.
- the file defines the model and `train_model` and calls nothing: a driver at the end (marked) builds a seeded
  synthetic series (a sine wave plus noise, 60 points), a model (`input_size=40, hidden_size=64, theta_size=8,
  horizon=20, num_blocks=3`) and calls `train_model(..., epochs=50)` as the README describes, then a `checksum` print.
- seeds (`torch`, `numpy`) set below.
The source's lines are unchanged.
"""
# ---- stand-ins: pandas; seeds ----
import importlib.machinery as _machinery
import sys as _sys
import types as _types
import numpy as _np
import torch as _torch

_torch.manual_seed(0)
_np.random.seed(0)
_pd = _types.ModuleType('pandas')
_pd.__spec__ = _machinery.ModuleSpec('pandas', None)
_sys.modules['pandas'] = _pd

# ===== N-BEATS.py =====
import torch
import torch.nn as nn
import numpy as np
import pandas as pd

# Define a single N-BEATS block
class NBeatsBlock(nn.Module):
    def __init__(self, input_size, hidden_size, theta_size, horizon):
        super(NBeatsBlock, self).__init__()
        self.input_size = input_size
        self.horizon = horizon
        self.theta_size = theta_size

        self.fc = nn.Sequential(
            nn.Linear(input_size, hidden_size),
            nn.ReLU(),
            nn.Linear(hidden_size, hidden_size),
            nn.ReLU(),
            nn.Linear(hidden_size, theta_size)
        )
        self.backcast_basis = nn.Parameter(torch.randn(theta_size, input_size))
        self.forecast_basis = nn.Parameter(torch.randn(theta_size, horizon))

    def forward(self, x):
        theta = self.fc(x)
        backcast = theta @ self.backcast_basis
        forecast = theta @ self.forecast_basis
        return backcast, forecast

# Define the complete N-BEATS model
class NBeats(nn.Module):
    def __init__(self, input_size, hidden_size, theta_size, horizon, num_blocks):
        super(NBeats, self).__init__()
        self.blocks = nn.ModuleList([
            NBeatsBlock(input_size, hidden_size, theta_size, horizon)
            for _ in range(num_blocks)
        ])

    def forward(self, x):
        residuals = x
        forecast = torch.zeros(x.size(0), self.blocks[0].horizon).to(x.device)
        for block in self.blocks:
            backcast, block_forecast = block(residuals)
            residuals = residuals - backcast
            forecast = forecast + block_forecast
        return forecast

# Train the model
def train_model(model, data, input_size, horizon, epochs=100, min_loss=1e-6):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = nn.MSELoss()

    # Use the first input_size points as input and the next horizon points as the target
    X = torch.tensor(data[:input_size], dtype=torch.float32).unsqueeze(0)  # Shape: (1, input_size)
    y = torch.tensor(data[input_size:input_size + horizon], dtype=torch.float32).unsqueeze(0)  # Shape: (1, horizon)

    for epoch in range(epochs):
        model.zero_grad()
        y_pred = model(X)
        loss = loss_fn(y_pred, y)
        loss.backward()
        optimizer.step()
        if epoch % 10 == 0:
            print(f"Epoch {epoch}, Loss: {loss.item()}")
        # Stop training when the loss is smaller than a predefined threshold
        if loss.item() < min_loss:
            print(f"Loss reached {loss.item()} < {min_loss}, stopping training at epoch {epoch}")
            break

    return model

# ---- driver (not in the source) and checksum ----
_series = np.sin(np.arange(60) / 5.0) + 0.1 * np.random.randn(60)
_model = NBeats(input_size=40, hidden_size=64, theta_size=8, horizon=20, num_blocks=3)
_model = train_model(_model, _series, input_size=40, horizon=20, epochs=50)
print("checksum", round(float(sum(p.detach().abs().sum() for p in _model.parameters())), 4))

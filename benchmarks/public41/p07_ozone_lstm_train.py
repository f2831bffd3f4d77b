"""Public check 41, p07: ozone time-series forecasting with an LSTM (sliding windows, a per-window evaluation loop).

Source: https://github.com/Yousef-Alhaj/Test-Task  Code/main.py @ 2a1cbd9a, Code/Split.py @ cc8e76bb,
Code/dataSet.py @ 00de37ad, Code/model.py @ a3a30199, Code/train.py @ df1e044f, Code/evaluate.py @ 68b75af5
(the six modules in their import order; their cross-module imports `from main import ...`, `from Split import ...`,
`from dataSet import ...`, `from model import ...`, `from train import ...` dropped since the modules are one here).

Changes to make it run on the CPU in seconds:
- `pandas` (not installed) and `./dataset/data.csv` -> a stand-in `pd.read_csv` answering a seeded synthetic hourly
  ozone series of 400 values (a daily cycle with noise) in an `OZONE` column.
- `num_epochs = 10` -> `num_epochs = 3`.
- a `checksum` print at the end; `torch.manual_seed(0)` with the stand-ins (added after the first run: unseeded, the source prints other losses every run).
The source's lines are otherwise unchanged (it sets `device = torch.device('cpu')` itself).
"""
# ---- stand-ins: pandas.read_csv with a synthetic OZONE column ----
import sys as _sys
import types as _types
from importlib.machinery import ModuleSpec as _ModuleSpec
import numpy as _np

_t = _np.arange(400)
_ozone = 30 + 12 * _np.sin(2 * _np.pi * _t / 24) + _np.random.RandomState(0).normal(0, 2, 400)
_pd = _types.ModuleType("pandas")
_pd.__spec__ = _ModuleSpec("pandas", None)
_pd.read_csv = lambda path: {"OZONE": _types.SimpleNamespace(values=_ozone.round(2))}
_sys.modules["pandas"] = _pd; __import__("torch").manual_seed(0)
# ---- end of stand-ins ----

# ===== main.py =====


import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import Dataset, DataLoader


data=pd.read_csv('./dataset/data.csv')
ozone_data = data['OZONE'].values.astype(float)
print(ozone_data)

# ===== Split.py =====



train_size = int(0.8 * len(ozone_data))
train_data, test_data = ozone_data[:train_size], ozone_data[train_size:]

train_mean = np.mean(train_data)
train_std = np.std(train_data)
train_data = (train_data - train_mean) / train_std


test_mean = np.mean(test_data)
test_std = np.std(test_data)
test_data = (test_data - test_mean) / test_std

# ===== dataSet.py =====

def create_dataset(data, window_size):
    X, y = [], []
    for i in range(len(data) - window_size):
        X.append(data[i:i + window_size])
        y.append(data[i + window_size])
    return np.array(X), np.array(y)

window_size = 6
X_train, y_train = create_dataset(train_data, window_size)
X_test, y_test = create_dataset(test_data, window_size)

# ===== model.py =====

class LSTMModel(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(LSTMModel, self).__init__()
        self.hidden_size = hidden_size
        self.lstm = nn.LSTM(input_size, hidden_size, batch_first=True)
        self.fc = nn.Linear(hidden_size, output_size)
        
    def forward(self, x, hx=None):
        if hx is None:
            h0 = torch.zeros(1, x.size(0), self.hidden_size).to(x.device)
            c0 = torch.zeros(1, x.size(0), self.hidden_size).to(x.device)
        else:
            h0, c0 = hx
        out, _ = self.lstm(x, (h0, c0))
        out = self.fc(out[:, -1, :])
        return out

# ===== train.py =====

input_size = window_size 
hidden_size = 64
output_size = 1  
batch_size = 16
num_epochs = 3

train_dataset = torch.utils.data.TensorDataset(torch.Tensor(X_train), torch.Tensor(y_train))
train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)

device = torch.device('cpu')
model = LSTMModel(input_size, hidden_size, output_size).to(device)
criterion = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=0.001)

for epoch in range(num_epochs):
    total_loss = 0
    model.train()
    for batch_x, batch_y in train_loader:
        batch_x, batch_y = batch_x.to(device), batch_y.to(device)
        optimizer.zero_grad()
        outputs = model(batch_x.unsqueeze(1))
        loss = criterion(outputs, batch_y.unsqueeze(1))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()

    average_loss = total_loss / len(train_loader)
    print(f'Epoch [{epoch+1}/{num_epochs}], Loss: {average_loss:.4f}')

# ===== evaluate.py =====

model.eval()
with torch.no_grad():
    y_pred = []
    for i in range(len(X_test)):
        input_seq = torch.Tensor(X_test[i]).unsqueeze(0).unsqueeze(1).to(device)
        output = model(input_seq)
        y_pred.append(output.item())

y_pred = (np.array(y_pred) * test_std) + test_mean

print("Predicted Ozone Value:")
print(y_pred[-1])

print("checksum", round(float(np.sum(y_pred)), 4))

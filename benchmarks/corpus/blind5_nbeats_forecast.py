# corpus: runnable
"""N-BEATS-style univariate forecasting: a trend block with a fixed polynomial basis and a
generic block, doubly-residual stacking, training windows cut at random positions of the
series per batch, and sMAPE on the last part of the series computed with NumPy."""
import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
BACK, FORE = 24, 6

t = np.arange(1200)
series = torch.tensor(10 + 0.01 * t + np.sin(2 * np.pi * t / 24) + 0.2 * np.random.randn(1200), dtype=torch.float32)
train_series, test_series = series[:1000].to(device), series[1000:].to(device)


class TrendBlock(nn.Module):
    def __init__(self, degree=3, hidden=64):
        super().__init__()
        self.degree = degree
        self.fc = nn.Sequential(nn.Linear(BACK, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.theta_b = nn.Linear(hidden, degree + 1, bias=False)
        self.theta_f = nn.Linear(hidden, degree + 1, bias=False)

    def forward(self, x):
        h = self.fc(x)
        tb = torch.arange(BACK, device=x.device) / BACK  # paef: expect redundant-tensor
        tf = torch.arange(FORE, device=x.device) / FORE  # paef: expect redundant-tensor
        basis_b = torch.stack([tb**i for i in range(self.degree + 1)])  # paef: ok redundant-tensor; ok list-to-tensor
        basis_f = torch.stack([tf**i for i in range(self.degree + 1)])  # paef: ok redundant-tensor; ok list-to-tensor
        return self.theta_b(h) @ basis_b, self.theta_f(h) @ basis_f


class GenericBlock(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(BACK, hidden), nn.ReLU(), nn.Linear(hidden, BACK + FORE))

    def forward(self, x):
        out = self.fc(x)
        return out[:, :BACK], out[:, BACK:]


class NBeats(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([TrendBlock(), GenericBlock(), GenericBlock()])

    def forward(self, x):
        level = x[:, -1:]
        residual, forecast = x - level, 0
        for block in self.blocks:
            back, fore = block(residual)
            residual = residual - back
            forecast = forecast + fore
        return forecast + level


def sample_windows(s, n):
    starts = torch.randint(0, len(s) - BACK - FORE, (n,))
    return torch.stack([s[i : i + BACK] for i in starts]), torch.stack([s[i + BACK : i + BACK + FORE] for i in starts])  # paef: expect elementwise-loop; ok list-to-tensor


model = NBeats().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(200):
    x, y = sample_windows(train_series, 64)
    loss = (model(x) - y).abs().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 50 == 0:
        print(f"step {step} mae {loss.item():.4f}")

model.eval()
with torch.no_grad():
    starts = range(0, len(test_series) - BACK - FORE, FORE)
    x = torch.stack([test_series[i : i + BACK] for i in starts])
    y = torch.stack([test_series[i + BACK : i + BACK + FORE] for i in starts])
    pred, true = model(x).cpu().numpy(), y.cpu().numpy()
smape = 100 * np.mean(2 * np.abs(pred - true) / (np.abs(pred) + np.abs(true)))
print(f"test sMAPE {smape:.3f}")

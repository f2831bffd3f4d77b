# corpus: runnable
"""A multivariate time-series forecaster (LSTNet style) whose optimizer wrapper clips by hand:
`Optim.step()` sums the squared norm of every parameter's gradient into a Python float
(`math.pow(param.grad.data.norm(), 2)`), one device-to-host copy per parameter per step. The
training loop also logs each layer's gradient norm as a Python float every step, and a second
trainer reads `.item()` of each norm. Near-misses: the same sum kept on the device and clipped
with `clip_grad_norm_`, per-parameter norms read only every 50 steps, and a loop over the
parameters after training."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Optim(object):
    def __init__(self, params, lr, max_grad_norm):
        self.params = list(params)
        self.max_grad_norm = max_grad_norm
        self.optimizer = torch.optim.SGD(self.params, lr=lr)

    def step(self):
        grad_norm = 0
        for param in self.params:
            grad_norm += math.pow(param.grad.data.norm(), 2)  # paef: expect host-sync
        grad_norm = math.sqrt(grad_norm)
        if grad_norm > 0:
            shrinkage = self.max_grad_norm / grad_norm
        else:
            shrinkage = 1.0
        for param in self.params:
            if shrinkage < 1:
                param.grad.data.mul_(shrinkage)
        self.optimizer.step()
        return grad_norm


class LSTNetLite(nn.Module):
    def __init__(self, m, hid):
        super().__init__()
        self.conv = nn.Conv1d(m, hid, 3, padding=1)
        self.gru = nn.GRU(hid, hid, batch_first=True)
        self.out = nn.Linear(hid, m)

    def forward(self, x):
        c = torch.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        _, h = self.gru(c)
        return self.out(h[-1])


def batches(series, window, batch_size):
    idx = torch.randperm(len(series) - window - 1)
    for i in range(0, len(idx) - batch_size + 1, batch_size):
        rows = idx[i:i + batch_size]
        x = torch.stack([series[r:r + window] for r in rows.tolist()])
        y = series[rows + window]
        yield x.to(device), y.to(device)


series = torch.cumsum(0.1 * torch.randn(400, 4), 0)
model = LSTNetLite(4, 16).to(device)
criterion = nn.MSELoss()
optim = Optim(model.parameters(), lr=0.05, max_grad_norm=5.0)
grad_log = []
for epoch in range(3):
    total, n = 0.0, 0
    for X, Y in batches(series, 24, 32):
        model.zero_grad()
        loss = criterion(model(X), Y)
        loss.backward()
        for name, p in model.named_parameters():
            grad_log.append((name, float(p.grad.norm())))  # paef: expect host-sync
        optim.step()
        total = total + loss.detach()
        n += 1
    print(f"epoch {epoch} loss {float(total) / n:.4f}")

model2 = LSTNetLite(4, 16).to(device)
opt2 = torch.optim.Adam(model2.parameters(), lr=1e-3)
norms = {}
for step, (X, Y) in enumerate(batches(series, 24, 32)):
    opt2.zero_grad()
    loss = criterion(model2(X), Y)
    loss.backward()
    for name, p in model2.named_parameters():
        norms[name] = p.grad.norm(2).item()  # paef: expect host-sync
    if step % 50 == 0:
        for p in model2.parameters():
            print(step, round(p.grad.norm().item(), 4))
    sq = torch.zeros((), device=device)
    for p in model2.parameters():
        sq = sq + p.grad.detach().pow(2).sum()
    torch.nn.utils.clip_grad_norm_(model2.parameters(), 1.0)
    opt2.step()
final = {name: round(p.detach().norm().item(), 3) for name, p in model2.named_parameters()}
print(sorted(norms)[:2], sorted(final.items())[:2], round(float(sq), 4) >= 0)

# corpus: runnable
"""A sparse-input regression trainer (group-lasso style) whose model is an `nn.Sequential`: the
penalty helper sums each input feature's weight column row by row, and is called on
`self.model[0].weight` (the first layer of the container) every step. A second trainer keeps its
layers in an `nn.ModuleList` and penalises `self.layers[-1].weight` the same way. Near-misses:
the vectorised norm over the same weight, a user container whose `__getitem__` returns a
Python list of floats, and a row loop over a weight read once after training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Trainer:
    def __init__(self, n_in, n_hidden, lam=1e-3):
        self.model = nn.Sequential(nn.Linear(n_in, n_hidden), nn.ReLU(), nn.Linear(n_hidden, 1))
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.lam = lam

    def penalty(self, weight):
        total = torch.zeros(())
        for j in range(weight.shape[0]):  # paef: expect elementwise-loop
            total = total + weight[j].norm()
        return total

    def step(self, x, y):
        loss = F.mse_loss(self.model(x).squeeze(1), y) + self.lam * self.penalty(self.model[0].weight)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.detach()


class StackTrainer:
    def __init__(self, sizes):
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
        self.opt = torch.optim.Adam(self.layers.parameters(), lr=1e-3)

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = torch.tanh(layer(x))
        return self.layers[-1](x)

    def step(self, x, y):
        loss = F.mse_loss(self.forward(x).squeeze(1), y)
        w = self.layers[-1].weight
        for r in range(w.shape[0]):  # paef: expect elementwise-loop
            loss = loss + 1e-3 * w[r].abs().sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.detach()

    def fast_step(self, x, y):
        loss = F.mse_loss(self.forward(x).squeeze(1), y) + 1e-3 * self.layers[0].weight.norm(dim=1).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class History:
    def __init__(self):
        self.rows = []

    def __getitem__(self, i):
        return self.rows[i]


x = torch.randn(128, 10)
y = x[:, 0] - 2 * x[:, 3] + 0.1 * torch.randn(128)
trainer = Trainer(10, 16)
stack = StackTrainer([10, 16, 8, 1])
hist = History()
for epoch in range(20):
    for i in range(0, 128, 32):
        l1 = trainer.step(x[i:i + 32], y[i:i + 32])
        l2 = stack.step(x[i:i + 32], y[i:i + 32])
        stack.fast_step(x[i:i + 32], y[i:i + 32])
    hist.rows.append([float(l1), float(l2)])
    last = hist[-1]
    for k in range(len(last)):
        last[k] = round(last[k], 3)
first = trainer.model[0].weight.detach()
col_norms = [round(float(first[:, j].norm()), 2) for j in range(first.shape[1])]
print(hist[-1], col_norms[:4])

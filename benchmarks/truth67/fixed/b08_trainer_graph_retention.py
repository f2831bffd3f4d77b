"""A small Trainer class that keeps each step's loss tensor in its history (with its graph) to
report the epoch mean at the end of the epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.history = []

    def fit_epoch(self, X, Y):
        for i in range(len(X)):
            loss = F.cross_entropy(self.model(X[i]), Y[i])
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.history.append(loss.detach())
        mean = torch.stack(self.history).mean()
        self.history = []
        return mean


torch.manual_seed(0)
X, Y = torch.randn(30, 256, 128), torch.randint(0, 10, (30, 256))
model = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
trainer = Trainer(model, 0.01)
for epoch in range(2):
    print(epoch, float(trainer.fit_epoch(X, Y)))

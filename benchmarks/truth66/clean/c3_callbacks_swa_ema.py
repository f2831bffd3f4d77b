"""A small trainer with callback objects: an EMA of the weights through AveragedModel updated
every step, and a loss meter that keeps a tensor and reads it once per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn


class LossMeter:
    def __init__(self):
        self.total, self.count = torch.zeros(()), 0

    def on_step_end(self, trainer, loss):
        self.total += loss.detach()
        self.count += 1

    def on_epoch_end(self, trainer, epoch):
        print(f"epoch {epoch} train loss {self.total.item() / self.count:.4f}")
        self.total.zero_()
        self.count = 0


class EMACallback:
    def __init__(self, model, decay=0.99):
        self.ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(decay))

    def on_step_end(self, trainer, loss):
        self.ema.update_parameters(trainer.model)

    def on_epoch_end(self, trainer, epoch):
        with torch.no_grad():
            val = F.mse_loss(self.ema(trainer.X_val), trainer.Y_val)
        print(f"epoch {epoch} ema val loss {val.item():.4f}")


class Trainer:
    def __init__(self, model, X, Y, X_val, Y_val, callbacks):
        self.model, self.X, self.Y, self.X_val, self.Y_val = model, X, Y, X_val, Y_val
        self.opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9, nesterov=True)
        self.callbacks = callbacks

    def fit(self, epochs, batch_size=64):
        for epoch in range(epochs):
            perm = torch.randperm(len(self.X))
            for i in range(0, len(self.X), batch_size):
                idx = perm[i:i + batch_size]
                loss = F.mse_loss(self.model(self.X[idx]), self.Y[idx])
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                for cb in self.callbacks:
                    cb.on_step_end(self, loss)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
X, Y = torch.randn(4096, 20), torch.randn(4096, 1)
Xv, Yv = torch.randn(512, 20), torch.randn(512, 1)
Trainer(model, X, Y, Xv, Yv, [LossMeter(), EMACallback(model)]).fit(epochs=3)

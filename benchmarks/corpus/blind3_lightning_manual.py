# corpus: runnable
"""A LightningModule-like classifier driven by a hand-rolled Trainer: training_step /
validation_step / configure_optimizers hooks, a logging dict, and a fit loop."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class LitClassifier(nn.Module):
    def __init__(self, in_dim=20, n_classes=3, lr=1e-2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, n_classes))
        self.lr = lr
        self.logged = defaultdict(list)

    def log(self, name, value):
        self.logged[name].append(value)

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss.item())  # paef: expect host-sync
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.log("val_loss", F.cross_entropy(logits, y).item())  # paef: ok host-sync
        self.log("val_acc", (logits.argmax(1) == y).float().mean().item())  # paef: ok host-sync

    def configure_optimizers(self):
        opt = torch.optim.Adam(self.parameters(), lr=self.lr)
        return opt, torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)


class Trainer:
    def __init__(self, max_epochs, device):
        self.max_epochs, self.device = max_epochs, device

    def to_device(self, batch):
        return [t.to(self.device) for t in batch]

    def fit(self, module, train_loader, val_loader):
        module.to(self.device)
        opt, sched = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for i, batch in enumerate(train_loader):
                loss = module.training_step(self.to_device(batch), i)
                opt.zero_grad()
                loss.backward()
                opt.step()
            sched.step()
            module.eval()
            for i, batch in enumerate(val_loader):  # paef: expect eval-without-no-grad
                module.validation_step(self.to_device(batch), i)
            n = len(val_loader)
            print(f"epoch {epoch} train {sum(module.logged['train_loss'][-len(train_loader):]) / len(train_loader):.4f} "
                  f"val {sum(module.logged['val_loss'][-n:]) / n:.4f} acc {sum(module.logged['val_acc'][-n:]) / n:.3f}")


X = torch.randn(600, 20)
w = torch.randn(20, 3)
Y = (X @ w + 0.5 * torch.randn(600, 3)).argmax(1)
train_loader = DataLoader(TensorDataset(X[:480], Y[:480]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
val_loader = DataLoader(TensorDataset(X[480:], Y[480:]), batch_size=60)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
Trainer(max_epochs=4, device=device).fit(LitClassifier(), train_loader, val_loader)

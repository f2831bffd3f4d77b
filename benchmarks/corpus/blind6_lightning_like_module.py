# corpus: runnable
"""A LightningModule-like class (training_step / validation_step / configure_optimizers /
on_validation_epoch_end) driven by a minimal Trainer that owns the loops, device moves, the
no_grad validation and the logging dict; self.log() stores plain numbers for the progress bar."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class LitModule(nn.Module):
    def __init__(self, lr=1e-2):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.ReLU(), nn.AdaptiveMaxPool1d(4), nn.Flatten(), nn.Linear(32, 3))
        self.lr = lr
        self.logged = defaultdict(list)
        self.val_outputs = []

    def log(self, name, value):
        self.logged[name].append(value)

    def forward(self, x):
        return self.net(x.unsqueeze(1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss.item())  # paef: expect host-sync
        self.log("train_acc", (logits.argmax(1) == y).float().mean().item())  # paef: expect host-sync
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.val_outputs.append({"loss": F.cross_entropy(logits, y, reduction="sum"), "correct": (logits.argmax(1) == y).sum(), "n": len(y)})

    def on_validation_epoch_end(self):
        n = sum(o["n"] for o in self.val_outputs)
        loss = torch.stack([o["loss"] for o in self.val_outputs]).sum() / n
        acc = torch.stack([o["correct"] for o in self.val_outputs]).sum() / n
        self.log("val_loss", loss.item())
        self.log("val_acc", acc.item())
        self.val_outputs.clear()

    def configure_optimizers(self):
        opt = torch.optim.Adam(self.parameters(), lr=self.lr)
        return opt, torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)


class Trainer:
    def __init__(self, max_epochs, accelerator="auto"):
        self.max_epochs = max_epochs
        self.device = torch.device("cuda" if accelerator != "cpu" and torch.cuda.is_available() else "cpu")

    def _to_device(self, batch):
        return [t.to(self.device) for t in batch]

    def fit(self, module, train_dataloaders, val_dataloaders):
        module.to(self.device)
        optimizer, scheduler = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(train_dataloaders):
                loss = module.training_step(self._to_device(batch), batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            scheduler.step()
            module.eval()
            with torch.no_grad():
                for batch_idx, batch in enumerate(val_dataloaders):
                    module.validation_step(self._to_device(batch), batch_idx)
            module.on_validation_epoch_end()
            print(f"epoch {epoch} train_loss {module.logged['train_loss'][-1]:.4f} val_loss {module.logged['val_loss'][-1]:.4f} val_acc {module.logged['val_acc'][-1]:.3f}")


t = torch.linspace(0, 1, 64)
y = torch.randint(0, 3, (600,))
x = torch.sin(2 * torch.pi * (y.float().unsqueeze(1) + 1) * 3 * t) + 0.5 * torch.randn(600, 64)
train_dl = DataLoader(TensorDataset(x[:480], y[:480]), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
val_dl = DataLoader(TensorDataset(x[480:], y[480:]), batch_size=60)  # paef: ok pageable-transfer
Trainer(max_epochs=5).fit(LitModule(), train_dl, val_dl)

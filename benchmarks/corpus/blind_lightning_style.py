# corpus: runnable
"""A LightningModule-style class driven by a small hand-written trainer (fit / validate / predict)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class LitClassifier(nn.Module):
    def __init__(self, in_dim=12, hidden=32, n_classes=3, lr=1e-2):
        super().__init__()
        self.lr = lr
        self.backbone = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Dropout(0.1))
        self.head = nn.Linear(hidden, n_classes)
        self.logged = {}

    def forward(self, x):
        return self.head(self.backbone(x))

    def log(self, name, value):
        self.logged.setdefault(name, []).append(value.detach())

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(dim=1) == y).float().mean()
        return {"val_loss": loss, "val_acc": acc}

    def configure_optimizers(self):
        optimizer = torch.optim.Adam(self.parameters(), lr=self.lr)
        scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.9)
        return optimizer, scheduler


class MiniTrainer:
    def __init__(self, max_epochs, device):
        self.max_epochs = max_epochs
        self.device = device

    def _to_device(self, batch):
        return [t.to(self.device, non_blocking=True) for t in batch]

    def fit(self, module, train_loader, val_loader):
        module.to(self.device)
        optimizer, scheduler = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(train_loader):
                batch = self._to_device(batch)
                loss = module.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            scheduler.step()
            metrics = self.validate(module, val_loader)
            train_loss = torch.stack(module.logged["train_loss"]).mean()
            print(f"epoch {epoch} train_loss {train_loss.item():.4f} val_loss {metrics['val_loss']:.4f} val_acc {metrics['val_acc']:.4f}")
            module.logged.clear()

    def validate(self, module, val_loader):
        module.eval()
        with torch.no_grad():
            outs = [module.validation_step(self._to_device(b), i) for i, b in enumerate(val_loader)]
        module.train()
        return {k: torch.stack([o[k] for o in outs]).mean().item() for k in outs[0]}

    def predict(self, module, loader):
        module.eval()
        preds = []
        for batch in loader:  # paef: expect eval-without-no-grad
            x = batch[0].to(self.device, non_blocking=True)
            preds.append(module(x).softmax(-1))
        return torch.cat(preds)


X = torch.randn(240, 12)
Y = (X[:, 0] > 0).long() + (X[:, 1] > 1).long()
train_loader = DataLoader(TensorDataset(X[:180], Y[:180]), batch_size=30, shuffle=True, pin_memory=True)
val_loader = DataLoader(TensorDataset(X[180:], Y[180:]), batch_size=60, pin_memory=True)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
trainer = MiniTrainer(max_epochs=3, device=device)
lit = LitClassifier()
trainer.fit(lit, train_loader, val_loader)
probs = trainer.predict(lit, val_loader)
print("pred mean", [round(v, 4) for v in probs.mean(0).tolist()])

"""Modules in the LightningModule shape: the steps return losses; the trainer drives them."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d_in, n_cls):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 16), nn.Tanh(), nn.Linear(16, n_cls))
        self.trainer = None

    def forward(self, x):
        return self.body(x)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.2, momentum=0.9)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def validation_step(self, batch, batch_idx):
        logits, y = batch
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(1) == y).float().mean()
        return {"loss": loss.item(), "acc": acc.item()}

    def on_validation_epoch_end(self, outputs):
        n = len(outputs)
        return {"val_loss": sum(o["loss"] for o in outputs) / n, "val_acc": sum(o["acc"] for o in outputs) / n}


class PseudoLabelClassifier(Classifier):
    """Self-training: the validation pass fits the unlabelled split to the model's own confident
    predictions, so validation_step takes an optimizer step of its own."""

    def validation_step(self, batch, batch_idx):
        logits, y = batch
        conf, pseudo = logits.softmax(1).max(1)
        keep = conf > 0.4
        if keep.any():
            loss_u = F.cross_entropy(logits[keep], pseudo[keep])
            self.trainer.optimizer.zero_grad()
            loss_u.backward()
            self.trainer.optimizer.step()
            self.trainer.optimizer.zero_grad()
        return super().validation_step((logits.detach(), y), batch_idx)

"""A LightningModule-shaped classifier: the hand-written Trainer calls its *_step methods."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    def __init__(self, n_in: int, n_classes: int, act_reg: float = 0.05):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 16), nn.ReLU(), nn.Linear(16, n_classes))
        self.act_reg = act_reg
        self._acts = []
        # activation regularisation (AR): the hook keeps the hidden activations of each forward
        self.net[1].register_forward_hook(self._keep_activation)

    def _keep_activation(self, module, inputs, output):
        self._acts.append(output)

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        reg = sum(a.pow(2).mean() for a in self._acts)
        self._acts.clear()
        return loss + self.act_reg * reg

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        return {"loss": F.cross_entropy(logits, y), "preds": logits.argmax(1), "target": y}

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)

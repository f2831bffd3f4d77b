"""A LightningModule-style class driven by a hand-written fit loop: training_step,
validation_step, configure_optimizers; logging every 25 steps; validation under no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    def __init__(self, d_in, n_classes):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU(), nn.Linear(128, n_classes))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def validation_step(self, batch):
        x, y = batch
        logits = self(x)
        return F.cross_entropy(logits, y, reduction="sum"), (logits.argmax(dim=1) == y).sum()

    def configure_optimizers(self, total_steps):
        opt = torch.optim.AdamW(self.parameters(), lr=2e-3, weight_decay=0.01)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=total_steps)
        return opt, sched


def fit(module, train_batches, val_batches, epochs, log_every=25):
    opt, sched = module.configure_optimizers(epochs * len(train_batches))
    step = 0
    for epoch in range(epochs):
        module.train()
        for batch in train_batches:
            loss = module.training_step(batch)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % log_every == 0:
                print(f"step {step} loss {loss.item():.4f} lr {sched.get_last_lr()[0]:.2e}")
        module.eval()
        total_loss, total_hits, seen = torch.zeros(()), torch.zeros((), dtype=torch.long), 0
        with torch.no_grad():
            for batch in val_batches:
                loss_sum, hits = module.validation_step(batch)
                total_loss += loss_sum
                total_hits += hits
                seen += len(batch[1])
        print(f"epoch {epoch} val loss {total_loss.item() / seen:.4f} acc {total_hits.item() / seen:.3f}")


torch.manual_seed(0)
X, Y = torch.randn(4096, 48), torch.randint(0, 6, (4096,))
train_batches = [(X[i:i + 64], Y[i:i + 64]) for i in range(0, 3584, 64)]
val_batches = [(X[i:i + 256], Y[i:i + 256]) for i in range(3584, 4096, 256)]
fit(LitClassifier(48, 6), train_batches, val_batches, epochs=3)

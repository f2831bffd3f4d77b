"""A small hand-written fit loop in the shape of Lightning's: gradient accumulation, a plateau
scheduler and callbacks that read the validation loss."""
import torch

from metrics import Accuracy


class Trainer:
    def __init__(self, max_epochs, accumulate_grad_batches=2, callbacks=(), device=None):
        self.device = device or torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.max_epochs = max_epochs
        self.accum = accumulate_grad_batches
        self.callbacks = list(callbacks)
        self.should_stop = False
        self.epoch = 0
        self.last_acc = 0.0
        self.train_losses = []

    def fit(self, module, train_batches, val_batches):
        module.to(self.device)
        opt = module.configure_optimizers()
        sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=0)
        for epoch in range(self.max_epochs):
            self.epoch = epoch
            module.train()
            epoch_loss = 0.0
            opt.zero_grad()
            for i, batch in enumerate(train_batches):
                batch = [t.to(self.device) for t in batch]
                loss = module.training_step(batch, i) / self.accum
                loss.backward()
                if (i + 1) % self.accum == 0:
                    opt.step()
                    opt.zero_grad()
                epoch_loss += loss.item() * self.accum
            self.train_losses.append(round(epoch_loss / len(train_batches), 5))
            val_loss = self.validate(module, val_batches)
            sched.step(val_loss)
            for cb in self.callbacks:
                cb.on_validation_end(self, module, val_loss)
            if self.should_stop:
                break

    def validate(self, module, val_batches):
        module.eval()
        acc = Accuracy()
        total, seen = 0.0, 0
        for i, batch in enumerate(val_batches):
            batch = [t.to(self.device) for t in batch]
            out = module.validation_step(batch, i)
            acc.update(out["preds"], out["target"])
            total += out["loss"].item() * len(batch[1])
            seen += len(batch[1])
        self.last_acc = acc.compute()
        return total / seen

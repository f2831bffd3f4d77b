"""A small Lightning-like trainer: it owns the loops and calls the module's step methods,
backward and the optimizer itself; the module never sees the loop."""
import json

import torch


class Callback:
    def on_batch_end(self, trainer, logs):
        pass

    def on_validation_end(self, trainer, metrics):
        pass


class JsonLogger(Callback):
    """Keeps one JSON line per logged batch, as a file logger would."""

    def __init__(self, every):
        self.every = every
        self.lines = []

    def on_batch_end(self, trainer, logs):
        if trainer.global_step % self.every == 0:
            self.lines.append(json.dumps({"step": trainer.global_step, "avg": round(trainer.running_loss / trainer.seen, 10)}))

    def on_validation_end(self, trainer, metrics):
        self.lines.append(json.dumps({k: round(v, 10) for k, v in metrics.items()}))


class Trainer:
    def __init__(self, max_epochs, accumulate, callbacks=()):
        self.max_epochs = max_epochs
        self.accumulate = accumulate
        self.callbacks = list(callbacks)
        self.global_step = 0
        self.running_loss = 0.0
        self.seen = 0

    def _call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def fit(self, module, train_batches, val_batches):
        self.optimizer = module.configure_optimizers()
        module.trainer = self
        for epoch in range(self.max_epochs):
            module.train()
            for i, batch in enumerate(train_batches):
                loss = module.training_step(batch, i)
                (loss / self.accumulate).backward()
                if (i + 1) % self.accumulate == 0:
                    self.optimizer.step()
                    self.optimizer.zero_grad()
                self.global_step += 1
                self.seen += 1
                self.running_loss += loss.item()
                self._call("on_batch_end", {"loss": loss})
            metrics = self.validate(module, val_batches)
            print("epoch", epoch, "val", {k: "%.10f" % v for k, v in metrics.items()})

    def validate(self, module, batches):
        module.eval()
        outputs = []
        for i, (x, y) in enumerate(batches):
            logits = module(x)
            outputs.append(module.validation_step((logits, y), i))
        metrics = module.on_validation_epoch_end(outputs)
        self._call("on_validation_end", metrics)
        module.train()
        return metrics

"""Callbacks the Trainer calls at the end of each validation."""


class EarlyStopping:
    def __init__(self, patience: int = 1, min_delta: float = 1e-4):
        self.patience = patience
        self.min_delta = min_delta
        self.best = float("inf")
        self.bad_epochs = 0

    def on_validation_end(self, trainer, module, val_loss):
        if val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.bad_epochs = 0
        else:
            self.bad_epochs += 1
            if self.bad_epochs > self.patience:
                trainer.should_stop = True


class History:
    def __init__(self):
        self.rows = []

    def on_validation_end(self, trainer, module, val_loss):
        self.rows.append((trainer.epoch, round(val_loss, 5), round(trainer.last_acc, 4)))

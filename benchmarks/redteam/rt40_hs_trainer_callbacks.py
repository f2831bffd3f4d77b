# corpus: runnable
# Red team 40 (blind): a class-based Trainer in the style of HF / Lightning. `compute_loss` is an override
# on a subclass, the running loss lives on the trainer (`self.running_loss += loss.item()`), and a list of
# callbacks receives the trainer itself every step: a progress callback reads `trainer.running_loss` in the
# middle of the epoch (its repr, its type, `json.dumps`), and a metric sink (`self.log`) stores floats.
import json

import torch
import torch.nn as nn

torch.manual_seed(40)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class ProgressCallback:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def on_step_end(self, trainer: "Trainer", step: int) -> None:
        if step % 3 == 2:
            self.lines.append(f"{step} {trainer.running_loss!r} {type(trainer.running_loss).__name__}")
            self.lines.append(json.dumps({"running": trainer.running_loss}))


class Trainer:
    def __init__(self, model: nn.Module, callbacks: list) -> None:
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
        self.callbacks = callbacks
        self.running_loss = 0.0
        self.logged: dict[str, list] = {}

    def log(self, name: str, value) -> None:
        self.logged.setdefault(name, []).append(value)

    def compute_loss(self, batch):
        x, y = batch
        return nn.functional.mse_loss(self.model(x), y)

    def train_epoch(self, batches) -> float:
        self.running_loss = 0.0
        for step, batch in enumerate(batches):
            loss = self.compute_loss(batch)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.running_loss += loss.item()
            self.log("loss", loss.item())
            for cb in self.callbacks:
                cb.on_step_end(self, step)
        return self.running_loss / len(batches)


class HuberTrainer(Trainer):
    def compute_loss(self, batch):
        x, y = batch
        return nn.functional.smooth_l1_loss(self.model(x), y, beta=0.5)


x = torch.randn(96, 5, device=device)
y = (x @ torch.randn(5, 2, device=device)).tanh()
batches = [(x[i : i + 12], y[i : i + 12]) for i in range(0, 96, 12)]
progress = ProgressCallback()
trainer = HuberTrainer(nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 2)).to(device), [progress])
for epoch in range(3):
    mean = trainer.train_epoch(batches)
    print(epoch, f"{mean:.15f}", type(mean).__name__)
print("\n".join(progress.lines))
print([type(v).__name__ for v in trainer.logged["loss"][:3]], f"{sum(trainer.logged['loss']):.15f}")
print(json.dumps({"final": trainer.running_loss})[:40])

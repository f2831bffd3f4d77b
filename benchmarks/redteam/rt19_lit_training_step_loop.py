# corpus: runnable
# A Lightning-style module written in plain Python: `training_step` / `validation_step` return
# losses to a small trainer that calls backward, `self.log(...)` keeps what it is given in a dict
# of lists, the trainer averages the logged values after the epoch, `manual_backward` for a module
# with manual optimisation, and a validation loop run through `validation_step`.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Recorder:
    def __init__(self):
        self.values = {}

    def __call__(self, name, value):
        self.values.setdefault(name, []).append(value)


class LitClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 3))
        self.log = Recorder()
        self.automatic_optimization = True

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss)
        self.log("train_acc", (logits.argmax(1) == y).float().mean().item())
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        self.log("val_loss", loss.item())
        return {"val_loss": loss, "correct": (logits.argmax(1) == y).sum()}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)

    def manual_backward(self, loss):
        loss.backward()


class MiniTrainer:
    def __init__(self, max_epochs):
        self.max_epochs = max_epochs

    def fit(self, module, train, val):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            epoch_loss = 0.0
            for idx, batch in enumerate(train):
                batch = [t.to(device) for t in batch]
                loss = module.training_step(batch, idx)
                opt.zero_grad()
                module.manual_backward(loss)
                opt.step()
                epoch_loss += loss.item()
            module.eval()
            val_loss = 0.0
            correct = 0
            for idx, batch in enumerate(val):
                batch = [t.to(device) for t in batch]
                out = module.validation_step(batch, idx)
                val_loss += out["val_loss"].item()
                correct += out["correct"].item()
            logged = module.log.values["train_loss"]
            print(epoch, round(epoch_loss, 6), round(val_loss, 6), correct,
                  torch.stack(logged).mean().item(), logged[-1].requires_grad)


torch.manual_seed(1)
train = [(torch.randn(16, 12), torch.randint(0, 3, (16,))) for _ in range(6)]
val = [(torch.randn(16, 12), torch.randint(0, 3, (16,))) for _ in range(3)]
module = LitClassifier().to(device)
MiniTrainer(2).fit(module, train, val)
print(sorted(module.log.values))
print(sum(module.log.values["train_acc"]) / len(module.log.values["train_acc"]))

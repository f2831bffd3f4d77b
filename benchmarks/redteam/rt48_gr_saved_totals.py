# corpus: runnable
# Red team 48 (blind): epoch totals of the loss kept as tensors (`epoch_loss += loss`) and handed to a
# wandb-like run object (written here: it stores what it is given) and to an in-memory `torch.save` of
# the epoch statistics. What the run stored and what the saved statistics load back as are printed, reprs
# included: a tensor that still carries its graph loads back with `requires_grad=True`.
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Run:
    """A tiny stand-in for an experiment tracker: keeps every logged dict as given."""

    def __init__(self):
        self.rows = []

    def log(self, row, step=None):
        self.rows.append((step, row))

    def summary(self):
        return {k: v for _, row in self.rows for k, v in row.items()}


run = Run()
model = nn.Sequential(nn.Linear(4, 10), nn.GELU(), nn.Linear(10, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(6)]
saved = []

for epoch in range(3):
    epoch_loss = 0
    for xb, yb in data:
        xb, yb = xb.to(device), yb.to(device)
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss
    run.log({"epoch_loss": epoch_loss}, step=epoch)
    buf = io.BytesIO()
    torch.save({"epoch": epoch, "loss_sum": epoch_loss}, buf)
    saved.append(buf.getvalue())
    print(f"epoch {epoch} loss_sum {float(epoch_loss):.10f}")

for blob in saved:
    stats = torch.load(io.BytesIO(blob))
    print("loaded", stats["epoch"], stats["loss_sum"])
print("tracker summary", run.summary())
print("first row", run.rows[0])

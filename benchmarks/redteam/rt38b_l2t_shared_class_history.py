# corpus: runnable
# Red team 38, wave 2 (blind): a metric meter whose `history` list is a class attribute, so every meter
# (train and validation) appends to the same list, a common Python surprise kept in many scripts. The
# training loop appends per-step losses and converts the history to a tensor for an epoch mean; the
# validation meter reports the last recorded values.
import torch
import torch.nn as nn

torch.manual_seed(5)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Meter:
    history = []

    def __init__(self, name: str) -> None:
        self.name = name

    def last(self, k: int) -> list:
        return self.history[-k:]


x = torch.randn(36, 4, device=device)
y = torch.randint(0, 3, (36,), device=device)
model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
train_meter = Meter("train")
val_meter = Meter("val")
hist = train_meter.history

for epoch in range(3):
    for b in range(0, 36, 9):
        loss = nn.functional.cross_entropy(model(x[b : b + 9]), y[b : b + 9])
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
    epoch_mean = torch.tensor(hist).mean()
    print(epoch, f"{epoch_mean.item():.12f}", epoch_mean.dtype)
    print("val view", val_meter.name, val_meter.last(2), [type(v).__name__ for v in val_meter.last(2)])

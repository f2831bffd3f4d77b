# corpus: runnable
# Red team 38 (blind): a metric meter whose `history` list is a class attribute, so every meter (train and
# validation) appends to the same list, a common Python surprise kept in many scripts. The training loop
# appends per-step losses and converts the history to a tensor for an epoch mean; the validation meter
# reports the last few recorded values.
import torch
import torch.nn as nn

torch.manual_seed(5)
torch.set_num_threads(1)


class Meter:
    history = []

    def __init__(self, name: str) -> None:
        self.name = name

    def last(self, k: int) -> list:
        return self.history[-k:]


x = torch.randn(36, 4)
y = torch.randint(0, 3, (36,))
model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
train_meter = Meter("train")
val_meter = Meter("val")

for epoch in range(3):
    for b in range(0, 36, 9):
        loss = nn.functional.cross_entropy(model(x[b : b + 9]), y[b : b + 9])
        opt.zero_grad()
        loss.backward()
        opt.step()
        train_meter.history.append(loss.item())
    epoch_mean = torch.tensor(train_meter.history).mean()
    print(epoch, f"{epoch_mean.item():.12f}", epoch_mean.dtype)
    print("val view", val_meter.name, val_meter.last(2), [type(v).__name__ for v in val_meter.last(2)])

scores = []
for b in range(0, 36, 12):
    with torch.no_grad():
        scores.append(model(x[b : b + 12]).softmax(1).max(1).values.mean().item())
print("conf", scores, torch.tensor(scores).dtype)

# corpus: runnable
# Second wave: `.item()` sums in evaluation loops whose dtype is easy to misread: one-hot counts,
# `torch.where` over float outputs, integer counts plus a float, a module whose forward returns
# class indices through a helper method, a global total summed in a function that a caller runs
# inside `try`.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(5, 3).to(device)
data = [(torch.randn(7, 5), torch.randint(0, 3, (7,))) for _ in range(4)]

hot = 0
masked = 0
shifted = 0
for x, y in data:
    out = model(x.to(device))
    hot += F.one_hot(out.argmax(1), 3)[:, 0].sum().item()
    masked += torch.where(out > 0, out, 0.0).sum().item()
    shifted += torch.add(y.to(device), 0.25).sum().item()
print("hot", hot, "masked %.17g" % masked, "shifted", shifted)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 3)

    def decode(self, logits):
        return logits.argmax(dim=1)

    def forward(self, x):
        return self.decode(self.fc(x))


dec = Decoder().to(device)
votes = 0
for x, _ in data:
    votes += dec(x.to(device)).sum().item()
print("votes", votes)

total = 0.0


def train_epoch():
    global total
    for step, (x, y) in enumerate(data):
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        total += loss.item()
        if step == 2:
            raise KeyboardInterrupt


try:
    train_epoch()
except KeyboardInterrupt:
    pass
print("interrupted", type(total).__name__, round(float(total), 6))

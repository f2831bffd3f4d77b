# corpus: runnable
# Red team 47 (blind): a hand-written tqdm-like progress wrapper. It is a generator around the loader
# that, every other batch, copies the script's running loss total into a postfix dict (as tqdm's
# `set_postfix` would show it); the postfix history is printed at the end with its types. The epoch
# loop drives `itertools.islice(cycle(loader), STEPS)`.
import itertools

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(7)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
STEPS = 11

postfix_log = []


def progress(iterable, desc):
    for i, item in enumerate(iterable):
        yield item
        if i % 2 == 1:
            postfix_log.append({"desc": desc, "i": i, "loss": running_loss})


X = torch.randn(24, 3)
Y = X @ torch.tensor([[0.5], [-1.0], [2.0]]) + 0.1 * torch.randn(24, 1)
loader = DataLoader(TensorDataset(X, Y), batch_size=4, shuffle=False)
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(2):
    running_loss = 0.0
    for x, y in progress(itertools.islice(itertools.cycle(loader), STEPS), f"epoch {epoch}"):
        x, y = x.to(device), y.to(device)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running_loss += loss.item()
    print("epoch", epoch, "mean %.12f" % (running_loss / STEPS))

for entry in postfix_log:
    print(entry["desc"], entry["i"], type(entry["loss"]).__name__, repr(entry["loss"])[:40])

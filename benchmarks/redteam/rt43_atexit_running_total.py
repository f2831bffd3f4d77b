# corpus: runnable
"""Step-budgeted training: the run stops with sys.exit() from inside the loop once the step budget is
spent, and an atexit hook prints the running loss and the step count, as cluster jobs often do."""
import atexit
import sys

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

MAX_STEPS = 7
running_loss = 0.0
seen = 0


def report():
    print("exit report: running_loss", repr(running_loss), type(running_loss).__name__, "seen", seen)
    print("exit mean %.10f" % (running_loss / max(seen, 1)))


atexit.register(report)

g = torch.Generator().manual_seed(2)
xs = torch.randn(40, 5, generator=g)
ys = (xs.sum(1, keepdim=True) > 0).float()
model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
crit = nn.BCEWithLogitsLoss()

step = 0
for epoch in range(5):
    for i in range(0, 40, 8):
        x, y = xs[i:i + 8].to(device), ys[i:i + 8].to(device)
        loss = crit(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running_loss += loss.item()
        seen += 1
        step += 1
        if step >= MAX_STEPS:
            print("step budget reached at epoch", epoch)
            sys.exit(0)
    print("epoch", epoch, "running %.10f" % running_loss)
print("finished all epochs")

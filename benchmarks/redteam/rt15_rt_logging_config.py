# corpus: runnable
# Logging configured inside the training loop (`logging.basicConfig(force=True)`, `setLevel`,
# `logging.disable`) while the loop reads the logger's level into a tensor that gates what the
# step records.
import logging
import sys

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="%(message)s", force=True)
log = logging.getLogger("rt15.train")
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

levels = []
for step in range(3):
    level = torch.tensor(logging.getLogger("rt15.train").getEffectiveLevel())
    x = torch.randn(4, 3)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    logging.basicConfig(level=logging.DEBUG + 10 * step, stream=sys.stdout, format="%(message)s", force=True)
    levels.append(int(level))
print("levels", levels)

gates = []
for step in range(3):
    gate = torch.tensor(logging.root.manager.disable)
    logging.disable(logging.INFO * (step + 1))
    gates.append(int(gate))
logging.disable(logging.NOTSET)
print("disable gates", gates)

handlers = []
for step in range(3):
    nh = torch.tensor(len(logging.getLogger().handlers))
    logging.getLogger().addHandler(logging.NullHandler())
    handlers.append(int(nh))
print("handlers", handlers)

# corpus: runnable
# Red team 45 (blind): an evaluation pass (no torch.no_grad) over a DataLoader whose last batch has one row;
# `squeeze()` turns that batch's errors into a 0-d tensor. The pass prints a raw prediction tensor and its
# `requires_grad`, accumulates squared error and counts with `.item()`, tracks the worst error with Python
# max, and reports RMSE via math.sqrt.
import math

import torch
import torch.nn as nn

from data import make_loader
from metrics import batch_errors

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(3, 6), nn.GELU(), nn.Linear(6, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loader = make_loader()
for epoch in range(3):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def evaluate(net, batches):
    net.eval()
    sq_err = 0.0
    count = 0
    worst = 0.0
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        pred = net(x)
        err, dims = batch_errors(pred, y)
        print("batch", len(x), "dims", dims, "pred head", pred[:1], pred.requires_grad)
        sq_err += (err ** 2).sum().item()
        count += err.numel()
        worst = max(worst, err.max().item())
    net.train()
    return sq_err, count, worst


sq_err, count, worst = evaluate(model, loader)
print("rmse %.17g over %d, worst %.17g" % (math.sqrt(sq_err / count), count, worst))

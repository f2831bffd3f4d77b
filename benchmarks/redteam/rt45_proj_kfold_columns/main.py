# corpus: runnable
# Red team 45 (blind): a dict of column lists filled from CSV-style rows, cut per fold with
# `torch.tensor(table[col][s:e])`. The folds are ceil-sized, so the last fold is EMPTY (torch.tensor([])
# is a float32 of shape (0,)), and the weight column holds ints except one 0.5 (a slice without it is int64).
import torch
import torch.nn as nn

from folds import fold_bounds
from rows import make_rows

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

table = {"x": [], "y": [], "w": []}
for feat, label, weight in make_rows(9):
    table["x"].append(feat)
    table["y"].append(label)
    table["w"].append(weight)

model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
bounds = fold_bounds(len(table["y"]), 4)
print("folds", bounds)
for epoch in range(3):
    for s, e in bounds:
        xb = torch.tensor(table["x"][s:e])
        yb = torch.tensor(table["y"][s:e])
        wb = torch.tensor(table["w"][s:e])
        print(epoch, s, e, tuple(xb.shape), xb.dtype, tuple(yb.shape), yb.dtype, wb.dtype, wb.tolist())
        if len(yb) == 0:
            continue
        xb, yb, wb = xb.to(device), yb.to(device), wb.to(device)
        pred = model(xb).squeeze(1)
        loss = (wb * nn.functional.binary_cross_entropy_with_logits(pred, yb.float(), reduction="none")).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("  loss %.12f" % loss.item(), "weight sum", (wb.sum() // 1).tolist())

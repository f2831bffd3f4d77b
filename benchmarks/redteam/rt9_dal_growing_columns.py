# corpus: runnable
# A dict of lists used as the training set and grown while training: pseudo-labels appended
# through an alias of the column, `+=` on the column, a helper extending it, `dict.update` with
# a longer column. A tensor built from the columns before the loop misses the new rows.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
data = {"x": [[0.1 * i, 0.2 * i] for i in range(4)], "y": [i % 2 for i in range(4)]}
model = nn.Linear(2, 2)


def add_pseudo(d, rows, labels):
    d["x"].extend(rows)
    d["y"].extend(labels)


seen = []
for epoch in range(3):
    for s in range(0, len(data["y"]), 2):
        xb = torch.tensor(data["x"][s : s + 2])
        yb = torch.tensor(data["y"][s : s + 2])
        seen.append((round(model(xb).sum().item(), 5), yb.tolist()))
    xs_col = data["x"]
    xs_col.append([float(epoch), 1.0])
    data["y"] += [epoch % 2]
print("grown by alias", seen)

pool = {"x": [[1.0, 0.0], [0.0, 1.0]], "y": [0, 1]}
rows = []
for epoch in range(3):
    for s in range(0, len(pool["y"]), 2):
        xb = torch.tensor(pool["x"][s : s + 2])
        rows.append(xb.sum().item())
    add_pseudo(pool, [[epoch + 0.5, 0.5]] * 2, [1, 0])
print("grown by helper", rows)

bank = {"x": [[0.5, 0.5], [1.5, -0.5]], "y": [1, 0]}
rows2 = []
for epoch in range(2):
    for s in range(0, len(bank["y"]), 2):
        xb = torch.tensor(bank["x"][s : s + 2])
        rows2.append(xb.tolist())
    bank.update(x=bank["x"] + [[9.0, 9.0], [8.0, 8.0]], y=bank["y"] + [0, 0])
print("grown by update", rows2)

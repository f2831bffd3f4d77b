# corpus: runnable
# Red team 45 probe (after first contact, not blind): k-fold cross-validation over a dict of column literals.
# The folds are ceil-sized, so with 9 rows and 4 folds the last fold is EMPTY: `torch.tensor(table["y"][9:12])`
# is a float32 of shape (0,), and the labels gathered per fold are concatenated (torch.cat promotes int64
# with that float32 to float32). Converting each column once and slicing keeps int64 and (0, 2).
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

table = {
    "x": [[0.1, 0.2], [0.3, -0.1], [0.0, 0.5], [0.9, 0.1], [-0.2, 0.4], [0.6, 0.6], [0.2, 0.2], [0.5, -0.5], [-0.7, 0.3]],
    "y": [0, 1, 0, 1, 1, 0, 1, 1, 0],
}
n = len(table["y"])
folds = 4
size = math.ceil(n / folds)
model = nn.Linear(2, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
for epoch in range(3):
    seen = []
    for k in range(folds):
        s = k * size
        xb = torch.tensor(table["x"][s:s + size])
        yb = torch.tensor(table["y"][s:s + size])
        seen.append(yb)
        print(epoch, k, tuple(xb.shape), xb.dtype, yb.dtype)
        if yb.numel() == 0:
            continue
        loss = nn.functional.cross_entropy(model(xb.to(device)), yb.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("  loss %.12f" % loss.item())
    labels = torch.cat(seen)
    print("labels", labels.dtype, labels.tolist())

# corpus: runnable
# Red team 25, wave 1: a dict of Python lists used as a dataset - columns changed between
# batches (appended to, an element rewritten, rebound, updated), a legacy constructor given one
# element (`torch.LongTensor(n)` makes a tensor of n elements), non-string keys
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(253)
data = {"x": [0.5, 1.5, -0.5, 2.0, 1.0, -1.0], "y": [1, 0, 1, 0, 1, 0]}
sizes = {"h": [3, 5, 4]}
by_id = {0: [0.1, 0.2, 0.3, 0.4], 1: [1.0, 2.0, 3.0, 4.0]}
model = nn.Linear(1, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
log = []
for step in range(3):
    xb = torch.tensor(data["x"][step:step + 3]).unsqueeze(1)
    yb = torch.tensor(data["y"][step:step + 3])
    loss = nn.functional.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    data["x"][step] = data["x"][step] * 2
    data["y"].append(step % 2)
    buf = torch.LongTensor(sizes["h"][step])
    extra = torch.tensor(by_id[step % 2][step:step + 2])
    log.append((round(loss.item(), 4), tuple(buf.shape), [round(v, 3) for v in extra.tolist()]))

feats = {"a": [1.0, 2.0, 3.0, 4.0]}
for step in range(3):
    part = torch.tensor(feats["a"][1:3])
    feats["a"] = [v + 1.0 for v in feats["a"]]
    feats.update(b=[0.0])
    log.append(part.tolist())

table = {"v": [2.0, 4.0, 6.0, 8.0]}
for step in range(3):
    row = torch.tensor(table["v"][step])
    table["v"].insert(0, -1.0)
    log.append(row.item())
print("dict columns", log)

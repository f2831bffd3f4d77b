# corpus: runnable
# Several rewrites on one unit: a hoisted factory that another rewrite also edits, a list the
# loop fills with `.item()` that is also the dict-of-lists column, an operator chain inside a
# factory that could be hoisted, an evaluation loop whose outputs feed a list-to-tensor.
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cpu")
model = nn.Linear(3, 3)
x = torch.randn(4, 3)
hist = {"loss": []}
for step in range(3):
    offs = torch.zeros(3).to(device)
    base = torch.tensor([0.5, -0.5, 1.0])
    act = 0.5 * base * (1.0 + torch.erf(base / math.sqrt(2.0)))
    out = model(x + offs + act)
    loss = out.pow(2).mean()
    loss.backward()
    hist["loss"].append(loss.item())
    offs.add_(1.0)
    print(step, offs.tolist(), [round(v, 4) for v in act.tolist()])
print(torch.tensor(hist["loss"]).shape, len(hist["loss"]))

model.eval()
scores = []
for xb in x.split(2):
    scores.append(model(xb).max().item())
print(torch.tensor(scores))

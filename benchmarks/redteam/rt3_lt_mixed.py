# corpus: runnable
# Lists of `.item()` values mixed with Python numbers appended on another branch or before the
# loop, and lists read as Python floats after the tensor is made.
import torch

torch.manual_seed(0)
rows = torch.randn(5, 3)
vals = []
for i, row in enumerate(rows):
    if i == 2:
        vals.append(0.0)
    else:
        vals.append(row.sum().item())
t = torch.tensor(vals)
print(t)

vals = []
for row in rows:
    vals.append(row.max().item())
t = torch.tensor(vals)
print(sum(vals) / len(vals), max(vals) > 0, vals[0] == float(vals[0]))

vals = []
for row in rows:
    vals.append(row.argmax().item())
t = torch.tensor(vals)
print(t, [v + 1 for v in vals], vals.count(0))

vals = []
for row in rows:
    vals.append(row.mean().item())
t = torch.tensor(vals)
import json
print(json.dumps(vals)[:30])

scores = {}
for i, row in enumerate(rows):
    scores.setdefault("a", []).append(row.sum().item())
print(torch.tensor(scores["a"]))

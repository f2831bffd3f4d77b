# corpus: runnable
# Lists of `.item()` values whose later uses depend on them holding Python floats: hashing
# (`set`, `Counter`, dict keys), `in`/`count`/`index`, `list.sort()` with a key,
# concatenation with literal floats, `copy.deepcopy`, `repr`.
import collections
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(2, 1).to(device)
xs = [torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 1.0]])]

preds = []
for x in xs:
    preds.append(model(x.to(device)).round().item())
print("distinct", len(set(preds)), sorted(collections.Counter(preds).values()))
print("tensor of preds", torch.tensor(preds).tolist())

scores = []
for x in xs:
    scores.append(model(x.to(device)).sum().item())
first = scores[0]
print("count", scores.count(first), scores.index(first), first in scores)
print("as tensor", [round(v, 5) for v in torch.tensor(scores).tolist()])

vals = []
for x in xs:
    vals.append(model(x.to(device)).abs().sum().item())
snapshot = copy.deepcopy(vals)
lookup = {v: i for i, v in enumerate(vals)}
print("lookup", len(lookup), len(snapshot))
print("stacked", [round(v, 5) for v in torch.tensor(vals).tolist()])

hist = []
for x in xs:
    hist.append(model(x.to(device)).mean().item())
hist.sort(key=lambda v: -v)
hist = hist + [0.0]
print("sorted", [round(v, 5) for v in torch.tensor(hist).tolist()])

# corpus: runnable
# `.item()` results used where Python semantics matter: dict keys, `json.dumps`, `%d`, `is`
# identity of small ints, `round`, list indexing, `hash`, a set of seen values, sorting mixed
# with Python numbers. A tensor in place of the Python number changes each of these.
import json

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
names = ["cat", "dog", "eel"]
data = [(torch.randn(5, 4), torch.randint(0, 3, (5,))) for _ in range(4)]

by_pred = {}
log = []
seen = set()
best = None
correct_total = 0
for x, y in data:
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    pred = out.argmax(1)[0].item()
    by_pred[pred] = by_pred.get(pred, 0) + 1
    correct = (out.argmax(1) == y).sum().item()
    correct_total += correct
    seen.add(correct)
    log.append({"loss": round(loss.item(), 4), "correct": correct, "name": names[pred]})
    if best is None or loss.item() < best:
        best = loss.item()
    print("correct %d of %d" % (correct, len(y)), type(pred) is int, type(correct).__name__)
print(json.dumps(log))
print(sorted(by_pred.items()), sorted(seen), hash(correct_total), round(best, 3))

total = 0
for x, y in data:
    total += (model(x).argmax(1) == y).sum().item()
print(json.dumps({"total": total}), names[total % 3], "%d" % total, total is total + 0)

peak = 0.0
for x, y in data:
    peak = max(peak, model(x).abs().max().item())
print(json.dumps({"peak": peak}), round(peak, 2))

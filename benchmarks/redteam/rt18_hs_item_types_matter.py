# corpus: runnable
# Totals of `.item()` whose Python type is read after the loop: integer division, `is`, dict
# keys, %-formatting with %d, `range`, json, `round`, `isinstance`, a bool accumulated by `or`,
# a count added to a float start, an integer total divided by an int.
import json
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
preds = [torch.randint(0, 3, (16,)) for _ in range(4)]
labels = [torch.randint(0, 3, (16,)) for _ in range(4)]

correct = 0
for p, y in zip(preds, labels):
    correct += (p == y).sum().item()
print("A", correct // 3, correct % 5, "%d hits" % correct, list(range(correct))[-1:])
print("A json", json.dumps({"correct": correct}))
print("A key", {correct: "x"}.get(correct), correct is not None, isinstance(correct, int))

fsum = 0.0
for p, y in zip(preds, labels):
    fsum += (p == y).sum().item()
print("B", repr(fsum), fsum.is_integer(), json.dumps(fsum))

bad = False
for p in preds:
    bad = bad or (p < 0).any().item()
print("C", bad, bad is False, json.dumps(bad))

n_pos = 0
for y in labels:
    n_pos += (y > 0).sum().item() / 3
print("D", repr(n_pos), round(n_pos, 2))

m = 0
for p in preds:
    m += p.max().item()
print("E", repr(m), "%d" % m, f"{m:03d}")

flags = 0
for p in preds:
    flags += (p == 2).any().item()
print("F", repr(flags), type(flags).__name__)

neg = 0
for p in preds:
    neg -= p.sum().item()
print("G", repr(neg), neg // 7)

# corpus: runnable
# Metric loops that rely on `.item()` raising: a defensive `try/except` skips batches whose
# metric is not a single number (a per-sample loss on a ragged last batch, an empty selection
# whose mean is NaN-free only by raising), counting the skipped ones. `.item()` is the filter.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(4, 2)
batches = [torch.randn(n, 4) for n in (4, 1, 3, 4, 2)]


def batch_metric(out):
    if out.size(0) < 4:
        return (out ** 2).sum(1)
    return (out ** 2).sum(1).mean()


total, skipped = 0.0, 0
for x in batches:
    out = model(x)
    try:
        total += batch_metric(out).item()
    except (RuntimeError, ValueError):
        skipped += 1
print("total", round(total, 5), "skipped", skipped)

scores = []
bad = 0
for x in batches:
    try:
        scores.append(model(x).max(1).values.squeeze().item())
    except RuntimeError:
        bad += 1
print("scores", [round(s, 5) for s in scores], torch.tensor(scores).mean().item(), bad)

hits = 0
for x in batches:
    pred = model(x).argmax(1)
    try:
        hits += pred.squeeze().item()
    except RuntimeError:
        continue
print("single-row hits", hits)

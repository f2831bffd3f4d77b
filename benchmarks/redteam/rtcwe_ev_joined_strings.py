# corpus: runnable
# Probe cwe (session 54): per-class probabilities collected in a dict of lists, then written as
# one joined line per class (`", ".join(map(str, ...))`), the way a quick CSV dump is written.
import collections

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)

clf = nn.Sequential(nn.Linear(6, 3))
clf.eval()
per_class = collections.defaultdict(list)
for _ in range(3):
    xb = torch.randn(2, 6)
    probs = clf(xb).softmax(-1)
    for row in probs:
        per_class[int(row.argmax())].append(row.max())
for k in sorted(per_class):
    print(k, ", ".join(map(str, per_class[k])))

# corpus: runnable
# Red team 45 (blind): per-step numbers collected with `.item()` / `float()` and turned into a tensor for a
# summary, but the SAME lists are also used as numbers: rounded and dumped as JSON, counted in a Counter
# (argmax ties on a constant-logit batch), deduplicated with set(), keyed into a dict, and pickled.
# A default dtype of float64 is set by the program.
import json
import pickle
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(3)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Linear(4, 3).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
batches = [(torch.randn(6, 4), torch.randint(0, 3, (6,))) for _ in range(8)]
batches[5] = (torch.zeros(6, 4), batches[5][1])  # an all-zero batch: every row's logits tie

losses, preds, norms = [], [], []
for x, y in batches:
    x, y = x.to(device), y.to(device)
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    preds.append(logits[0].argmax().item())
    norms.append(float(model.weight.detach().norm()))

loss_t = torch.tensor(losses)
pred_t = torch.tensor(preds)
norm_t = torch.tensor(norms)
print("summary", loss_t.dtype, "%.17g" % loss_t.mean().item(), pred_t.tolist(), "%.17g" % norm_t.max().item())
print(json.dumps({"losses": [round(v, 6) for v in losses], "first_pred": preds[0]}))
print("pred counts", sorted(Counter(preds).items()))
print("distinct norms", len(set(norms)), "distinct preds", len(set(preds)))
by_pred = {}
for p, l in zip(preds, losses):
    by_pred.setdefault(p, []).append(l)
print("by pred", {k: len(v) for k, v in sorted(by_pred.items())})
print("pickle bytes", len(pickle.dumps(losses)))

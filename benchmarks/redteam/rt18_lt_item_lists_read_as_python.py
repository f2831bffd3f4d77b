# corpus: runnable
# Lists of `.item()` values turned into a tensor and also read as Python values: counted with
# Counter, put in a set, used as dict keys, dumped to JSON, compared with `is`, extended with
# Python numbers later, sorted with mixed types, joined into a string.
import collections
import json
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
logits = [torch.randn(4) for _ in range(6)]

picked = []
for row in logits:
    picked.append(row.argmax().item())
print("A", torch.tensor(picked).tolist(), sorted(collections.Counter(picked).items()))

ids = []
for row in logits:
    ids.append(row.argmin().item())
t = torch.tensor(ids)
print("B", t.sum().item(), len(set(ids)), json.dumps(ids))

vals = []
for row in logits:
    vals.append(row.max().item())
v = torch.tensor(vals)
table = {round(x, 3): i for i, x in enumerate(vals)}
print("C", v.mean().item(), sorted(table.items())[:2])

ks = []
for row in logits:
    ks.append(row.argmax().item())
kt = torch.tensor(ks)
ks.append(7)
print("D", kt.tolist(), ks, ",".join(str(k) for k in ks))

zs = []
for row in logits:
    zs.append((row > 0).sum().item())
zt = torch.tensor(zs)
print("E", zt.tolist(), [z is 0 for z in zs], [type(z).__name__ for z in zs])

ms = []
for row in logits:
    ms.append(row.mean().item())
mt = torch.tensor(ms)
print("F", mt.dtype, [f"{m:.4f}" for m in ms], max(ms) > 0.1)

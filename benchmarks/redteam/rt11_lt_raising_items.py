# corpus: runnable
# `.item()` lists where the read is control flow or its Python type matters: a try/except that
# skips multi-element scores, unsigned 8-bit maxima summed after the join, a list also dumped
# to JSON, a list printed element by element with `:d`.
import json

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
batches = [torch.randn(1), torch.randn(3), torch.randn(1), torch.randn(2), torch.randn(1)]
kept = []
for b in batches:
    try:
        kept.append(b.item())
    except RuntimeError:
        pass
print("kept", [round(v, 4) for v in torch.tensor(kept).tolist()])

images = torch.randint(100, 256, (6, 4, 4), dtype=torch.uint8)
peaks = []
for img in images:
    peaks.append(img.max().item())
print("peak sum", torch.tensor(peaks).sum().item())

labels = torch.randint(0, 5, (6,))
picked = []
for y in labels:
    picked.append(y.item())
t = torch.tensor(picked)
print("json", json.dumps(picked), t.tolist())
print("fmt", " ".join(f"{v:d}" for v in picked))

# corpus: runnable
# deque([], maxlen=n) buffers whose rows come from bool, uint8, int32 and float64 tensors through
# .tolist(): the batch built by torch.tensor has the dtype of the Python values, not the source's.
from collections import deque

import torch

torch.manual_seed(0)
masks = deque([], maxlen=5)
pixels = deque([], maxlen=5)
ids = deque([], maxlen=5)
vals = deque([], maxlen=5)
out = []
for step in range(6):
    frame = torch.randint(0, 255, (2, 3), dtype=torch.uint8)
    for r in range(2):
        masks.append((frame[r] > 128).tolist())
        pixels.append(frame[r].tolist())
        ids.append(frame[r].to(torch.int32).tolist())
        vals.append(frame[r].double().div(7).tolist())
    picks = [(step + j) % len(masks) for j in range(3)]
    m = torch.tensor([masks[i] for i in picks])
    p = torch.tensor([pixels[i] for i in picks])
    q = torch.tensor([ids[i] for i in picks])
    v = torch.tensor([vals[i] for i in picks])
    out.append((m.dtype, m.sum().item(), p.dtype, (p * 2).sum().item(), q.dtype, v.dtype, round(v.sum().item(), 4)))
    out.append(str(p - 200)[:40])
print(out)

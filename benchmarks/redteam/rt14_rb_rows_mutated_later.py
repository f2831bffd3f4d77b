# corpus: runnable
# Replay buffers of `.tolist()` rows whose rows are used as lists afterwards: a row edited in
# place (reward shaping of the last transition), rows serialised with `json.dumps`, a row
# compared with `==` to a list, `random.shuffle` of a row.
import json
import random
from collections import deque

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)
buf = deque(maxlen=8)
batches = []
for step in range(6):
    s = torch.randn(3)
    buf.append(s.tolist())
    if step > 0:
        buf[-2][0] = 0.0
    if len(buf) >= 4:
        idx = [0, 2, len(buf) - 1]
        batch = torch.tensor([buf[i] for i in idx])
        batches.append(round(batch.sum().item(), 4))
print("edited rows", batches)
print("json", len(json.dumps(list(buf))))

mem = []
picked = []
for step in range(5):
    obs = torch.arange(3.0) + step
    mem.append(obs.tolist())
    if len(mem) > 2:
        rows = random.sample(mem, 2)
        picked.append(torch.tensor(rows).sum().item())
print("sampled", picked, mem[0] == [0.0, 1.0, 2.0])
random.shuffle(mem[1])
print("shuffled row", mem[1])

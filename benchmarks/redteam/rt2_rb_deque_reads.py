# corpus: runnable
# deque([], maxlen=n) replay memories whose rows (host lists) are also read as lists elsewhere.
import random
from collections import deque

import torch

random.seed(0)
torch.manual_seed(0)
memory = deque([], maxlen=6)
seen = deque([], maxlen=4)
log = []
for step in range(6):
    state = torch.randint(0, 5, (3,))
    memory.append(state.tolist())
    seen.append(state.float().tolist())
    log.append(memory[-1] == [0, 1, 2])
    log.append(str(seen[-1])[:12])
    if len(memory) >= 3:
        picks = random.sample(range(min(len(memory), len(seen))), 3)
        batch = torch.tensor([memory[i] for i in picks])
        rows = torch.tensor([seen[i] for i in picks])
        log.append((batch.dtype, batch.sum().item(), rows.dtype, round(rows.mean().item(), 3)))
print(log)

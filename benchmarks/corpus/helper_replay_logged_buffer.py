# corpus: runnable
"""Online regression whose replay list of `.tolist()` rows is also handed to a logging
helper: the rows must stay Python lists, so the buffer can only be a hint."""
import random

import torch

random.seed(0)
torch.manual_seed(0)


def summarize(rows):
    return sum(sum(r) for r in rows) / max(1, len(rows))


w = torch.zeros(3, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
replay = []
for step in range(40):
    x = torch.randn(3)
    replay.append(x.tolist())
    idx = random.sample(range(len(replay)), min(8, len(replay)))
    batch = torch.tensor([replay[i] for i in idx])  # paef: refuse record-buffer
    loss = (batch @ w - batch.sum(1)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print("mean feature", round(summarize(replay), 4))
print("w", [round(v, 3) for v in w.tolist()])

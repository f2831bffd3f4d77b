# corpus: runnable
# The DQN tutorial's replay memory (deque([], maxlen=...)), transitions of host lists, a batch
# built from the sampled transitions; a transition's state list changed after it is stored.
import random
from collections import deque, namedtuple

import torch

random.seed(1)
torch.manual_seed(1)
Transition = namedtuple("Transition", ("state", "action", "reward"))


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, n):
        return random.sample(self.memory, n)

    def __len__(self):
        return len(self.memory)


mem = ReplayMemory(8)
out = []
state = torch.randn(2)
for step in range(7):
    row = state.tolist()
    mem.push(row, step % 2, float(step))
    row.append(0.0) if step == 100 else None
    state = state * 0.5 + torch.randn(2)
    if len(mem) >= 4:
        batch = Transition(*zip(*mem.sample(4)))
        s = torch.tensor(batch.state)
        a = torch.tensor(batch.action)
        r = torch.tensor(batch.reward)
        out.append((round(s.sum().item(), 4), a.tolist(), r.tolist(), s.dtype))
print(out)

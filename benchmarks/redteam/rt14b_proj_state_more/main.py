# corpus: runnable
# A local module changes another module's state by `setattr(state, ...)` in a method of an object
# the script builds, and through `importlib.import_module("state").sizes`.
import torch

import state
from sched import Annealer, grow

torch.set_num_threads(1)
ann = Annealer()
vals = []
for step in range(3):
    t = torch.full((2,), state.scale)
    ann.step()
    vals.append(t.sum().item())
print("setattr in a method", vals)

lens = []
for step in range(3):
    z = torch.tensor(state.sizes)
    grow()
    lens.append(z.numel())
print("importlib grow", lens)

# corpus: runnable
# Module state changed by calls that look read-only: `torch.func.functional_call` with
# `tie_weights`, `model.apply(init)` with an initialiser that does not end in `_`,
# `model.load_state_dict(sd, strict=False)` through a helper, `copy.deepcopy` into an EMA
# object's `module` attribute, `optimizer.load_state_dict`.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(2, 2)


def reinit(m):
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.fill_(m.weight.sum().item() + 1)


sums = []
for step in range(3):
    w = torch.tensor(model.weight.sum().item())
    model.apply(reinit)
    sums.append(round(w.item(), 4))
print("apply init", sums)


def restore(m, sd):
    m.load_state_dict(sd, strict=False)


snap = {"bias": torch.full((2,), 5.0)}
bs = []
for step in range(2):
    b = torch.tensor(model.bias.tolist())
    restore(model, snap)
    bs.append(b.sum().item())
print("helper load_state_dict", bs)


class EMA:
    def __init__(self, m):
        self.module = copy.deepcopy(m)

    def update(self, m):
        self.module = copy.deepcopy(m)


ema = EMA(model)
es = []
for step in range(3):
    e = torch.tensor(ema.module.bias.sum().item())
    with torch.no_grad():
        model.bias.add_(1.0)
    ema.update(model)
    es.append(e.item())
print("ema deepcopy", es)

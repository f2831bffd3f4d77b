# corpus: runnable
# A project: `precision.py` provides the scopes the training uses (a default-dtype context
# manager, a phase switch), `hooks.py` installs a global input-scaling pre-hook through an alias,
# `attacks.py` crafts adversarial inputs with autograd (relying on the caller's grad mode), and
# `data.py` yields per-step buffers that the training keeps.
import torch
import torch.nn as nn

from attacks import ATTACKS
from data import buffers
from hooks import install
from precision import double_scope, set_phase

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(6, 3, dtype=torch.float64) * 1e-4 + 1.0

acc_log = []
for epoch in range(2):
    with double_scope():
        acc = torch.zeros(3)
    for x in xs:
        acc += x
    acc_log.append((str(acc.dtype), acc.sum().item()))
print(acc_log)

phase_log = []
for phase in ("coarse", "fine"):
    set_phase(phase)
    run = torch.zeros(3)
    for x in xs:
        run += x
    phase_log.append((phase, str(run.dtype)))
set_phase("coarse")
print(phase_log)

scaler = nn.Linear(3, 1)
install(scaler)
outs = []
for step in range(3):
    probe = torch.full((1, 3), 2.0)
    outs.append(round(scaler(probe).item(), 5))
print(outs)

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
model.eval()
hits = 0
for i in range(3):
    x, y = torch.randn(5, 3), torch.randint(0, 2, (5,))
    adv = ATTACKS["fgsm"](model, x, y)
    hits += (model(adv).argmax(1) == y).sum().item()
print("robust", hits)

kept = [b for b in buffers(4)]
kept[0].add_(1.0)
print([b.tolist() for b in kept])

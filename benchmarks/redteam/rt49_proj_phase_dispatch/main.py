# corpus: runnable
# Red team 49 (blind): one loop body serving every phase, the step chosen by a `match` on the phase string,
# by a dict the trainer fills in later, by `getattr` on a class of `@staticmethod` steps, or by a
# `functools.partial` made in one branch only; plus test-time adaptation through a method bound onto the
# model instance and run inside a `contextmanager` that switches eval()/train().
import types

import torch
import torch.nn as nn

import runner
from runner import run_adapted, run_getattr, run_match, run_table
from steps import Steps, adapt_entropy, fit_step

torch.manual_seed(4902)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(7)
X = torch.randn(60, 6, generator=g)
Y = (X[:, 0] + 0.5 * X[:, 1] > 0).long() + (X[:, 2] > 1).long()
train = [(X[i:i + 10], Y[i:i + 10]) for i in range(0, 40, 10)]
val = [(X[i:i + 10], Y[i:i + 10]) for i in range(40, 60, 10)]

model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
Steps.optimizer = opt

for epoch in range(2):
    for phase, batches in (('train', train), ('val', val)):
        total, hits = run_match(model, opt, batches, phase, device)
        print('match', epoch, phase, f'{total:.8f}', hits)

# the trainer registers its training step under 'train' after the table is built
runner.STEP_TABLE['train'] = lambda m, x, y, o=opt: fit_step(o, m, x, y)
print('table', f'{run_table(model, train, "train", device):.8f}', f'{run_table(model, val, "val", device):.8f}')
print('getattr', f'{run_getattr(model, train, "train", device):.8f}', f'{run_getattr(model, val, "val", device):.8f}')

model.adapt = types.MethodType(adapt_entropy, model)
acc, ents = run_adapted(model, val, device)
print('adapted', f'{acc:.8f}', ents, model.training)
print('bias', [round(v, 8) for v in model[-1].bias.tolist()])

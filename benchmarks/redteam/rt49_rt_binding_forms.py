# corpus: runnable
# Red team 49 (blind): a small schedule-driven regression loop where the values the per-step tensors are built
# from change only through Python binding forms other than `name = ...`: a `match` statement capturing the
# schedule entry (`case {"scale": scale}`), a walrus inside a generator expression (which binds in the enclosing
# scope), a chained assignment, `except ... as`, a `with ... as` context manager yielding the new value, an
# `import ... as` inside the loop and a `for` target that is the same name.
import contextlib
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(49)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(40, 6)
Y = X @ torch.linspace(-1.0, 1.0, 6).unsqueeze(1) + 0.1
model = nn.Linear(6, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)

schedule = [
    {"phase": "warmup", "scale": 0.25},
    {"phase": "main", "scale": 1.0, "shift": 0.5},
    {"phase": "main", "scale": 2.0, "shift": -0.5},
    {"phase": "cool"},
    {"phase": "main", "scale": 0.5, "shift": 0.0},
]

scale = 1.0
shift = 0.0
for step, entry in enumerate(schedule):
    match entry:
        case {"phase": "main", "scale": scale, "shift": shift}:
            pass
        case {"phase": "warmup", "scale": scale}:
            shift = 0.0
        case _:
            pass
    # built from `scale` / `shift`, which only the match above rebinds
    weights = torch.full((6,), scale) + shift
    xb = X[step * 8:(step + 1) * 8].to(device)
    yb = Y[step * 8:(step + 1) * 8].to(device)
    loss = F.mse_loss(model(xb * weights.to(device)), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print('match', step, entry['phase'], f'{loss.item():.8f}', weights[:2].tolist())

# a walrus inside a generator expression rebinds `limit` in this scope when a batch is too large
limit = 3.0
for step in range(4):
    xb = X[step * 10:(step + 1) * 10]
    if any((limit := float(v)) > 2.5 for v in xb.abs().amax(1)):
        pass
    clip = torch.tensor([limit, -limit])
    kept = xb.clamp(clip[1].item(), clip[0].item())
    print('walrus', step, f'{limit:.6f}', f'{kept.sum().item():.6f}')

# a chained assignment decays `base` together with `lr`
base = 1.0
lr = 0.1
for step in range(4):
    offsets = torch.arange(3) * base
    print('chained', step, offsets.tolist())
    lr = base = base * 0.5

# `except ... as err` keeps the last error text; the message length is a tensor size
note = 'ok'
for step in range(4):
    try:
        if step % 2:
            raise ValueError('bad batch ' + 'x' * step)
    except ValueError as err:
        note = str(err)
    pad = torch.zeros(len(note))
    print('except', step, note, tuple(pad.shape))


@contextlib.contextmanager
def annealed(t):
    yield 1.0 / (1 + t)


temp = 1.0
for step in range(3):
    with annealed(step) as temp:
        logits = torch.linspace(-1, 1, 5) / temp
    probs = torch.softmax(torch.linspace(-1, 1, 5) / temp, 0)
    print('with', step, f'{temp:.4f}', [round(p, 6) for p in probs.tolist()], f'{logits.sum().item():.4f}')

# the loop's own target is named like the earlier global
k = 7
for k in range(3):
    ramp = torch.arange(k + 1)
    print('target', k, ramp.tolist())
print('after', k)

# a name imported inside the loop
tau = 2.0
for step in range(2):
    ring = torch.linspace(0, tau, 4)
    print('import', step, [round(v, 5) for v in ring.tolist()])
    from math import tau
print('final', f'{model.weight.sum().item():.8f}', math.isclose(tau, 2 * math.pi))

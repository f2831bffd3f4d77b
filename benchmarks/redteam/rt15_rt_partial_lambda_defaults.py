# corpus: runnable
# Callables that capture loop state by default arguments or `functools.partial`: rebuilt inside
# the loop (`lambda s=step: ...`, `partial(torch.full, (2,), lr)`), called by an expression
# that therefore differs per step.
import functools

import torch

torch.set_num_threads(1)
fill = lambda v=0.0: torch.full((2,), v)
vals = []
for step in range(3):
    t = fill()
    fill = lambda v=float(step + 1): torch.full((2,), v)
    vals.append(t.tolist())
print("defaults", vals)

lr = 0.1
make = functools.partial(torch.full, (2,), lr)
lrs = []
for step in range(3):
    u = make()
    lr = lr / 2
    make = functools.partial(torch.full, (2,), lr)
    lrs.append(u.tolist())
print("partials", lrs)

scales = {"k": functools.partial(torch.mul, torch.ones(2))}
outs = []
for step in range(3):
    m = scales["k"](2.0)
    scales["k"] = functools.partial(torch.mul, torch.ones(2) * (step + 2))
    outs.append(m.tolist())
print("dict partials", outs)

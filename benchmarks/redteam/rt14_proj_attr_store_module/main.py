# corpus: runnable
# A local module changes state the loop reads: `state.scale` rebound by `hooks.tick()`, a list of
# another module grown by `hooks.grow()`, a dict passed to `hooks.bump`, a warm-up object whose
# method (defined in hooks.py) rebinds its attribute.
import torch

import hooks
import state
from state import table, widths

torch.set_num_threads(1)
vals = []
for step in range(3):
    s = torch.full((2,), state.scale)
    hooks.tick()
    vals.append(s.sum().item())
print("module attribute", vals)

shapes = []
for step in range(3):
    z = torch.zeros(widths[-1])
    hooks.grow()
    shapes.append(z.numel())
print("other module's list", shapes)

ns = []
for step in range(3):
    r = torch.arange(table["n"])
    hooks.bump(table)
    ns.append(r.numel())
print("dict passed to helper", ns)

wu = hooks.Warmup()
fs = []
for step in range(3):
    f = torch.tensor(wu.factor)
    wu.step()
    fs.append(f.item())
print("warmup object", fs)

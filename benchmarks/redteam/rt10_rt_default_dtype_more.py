# corpus: runnable
# The default dtype switched where no `torch.set_default_dtype(...)` call is spelled: through a
# setter looked up with `getattr(torch, ...)`, a setter bound to another name, and
# `torch.set_default_tensor_type`. Factories and `torch.tensor(<floats>)` in those phases build
# float64; built in another phase or assumed float32, they would not.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(6, 3, dtype=torch.float64) * 1e-4 + 1.0
choose = getattr(torch, "set_default_" + "dtype")
use = torch.set_default_dtype

r1 = []
for phase in ("coarse", "fine", "fine"):
    choose(torch.float64 if phase == "fine" else torch.float32)
    acc = torch.zeros(3)
    for x in xs:
        acc += x
    r1.append((phase, str(acc.dtype), acc.sum().item()))
choose(torch.float32)
print(r1)

r2 = []
for phase in ("fine", "coarse"):
    use(torch.float64 if phase == "fine" else torch.float32)
    base = torch.ones(3)
    r2.append((phase, str(base.dtype), (base / 3).sum().item()))
use(torch.float32)
print(r2)

use(torch.float64)
vals = []
for x in xs.float():
    vals.append((x / 3).sum().item())
v = torch.tensor(vals)
use(torch.float32)
print(str(v.dtype), repr(v.sum().item()))

data = {"x": [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]]}
r3 = []
for phase in ("coarse", "fine"):
    use(torch.float64 if phase == "fine" else torch.float32)
    for idx in ([0, 1], [2, 3]):
        xb = torch.tensor([data["x"][i] for i in idx])
        r3.append((phase, str(xb.dtype), repr(xb.sum().item())))
use(torch.float32)
print(r3)

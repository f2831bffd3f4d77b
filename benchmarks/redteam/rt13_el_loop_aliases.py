# corpus: runnable
# Python loops over tensor elements whose target aliases the source through `x[:]`, `.view`,
# `.data`, `.detach()`, `torch.as_strided` (each iteration reads what an earlier one wrote), and
# loops whose per-element function rounds in float64 (`math.exp`) before storing into float32.
import math

import torch

torch.set_num_threads(1)
x = torch.arange(1, 7, dtype=torch.float32)
y = x[:]
for i in range(1, 6):
    y[i] = x[i - 1] * 2
print("slice alias", y.tolist())

a = torch.arange(1, 7, dtype=torch.float32)
b = a.data
for i in range(6):
    b[i] = a[5 - i]
print("data alias", a.tolist())

c = torch.arange(1, 7, dtype=torch.float32)
d = c.view(2, 3).view(-1)
for i in range(6):
    d[i] = c[(i + 1) % 6] + 1
print("view alias", c.tolist())

e = torch.linspace(-3, 3, 7)
f = torch.empty(7)
for i in range(7):
    f[i] = math.exp(e[i])
print("math.exp", [v.hex() for v in f.double().tolist()])

g = torch.arange(1, 7, dtype=torch.float32)
h = g.detach()
for i in range(6):
    h[i] = g[i] + g[(i + 5) % 6]
print("detach alias", g.tolist())

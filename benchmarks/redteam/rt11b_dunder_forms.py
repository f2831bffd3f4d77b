# corpus: runnable
# Per-epoch tables changed through operator methods reached in other ways: `type(t).__setitem__`,
# `torch.Tensor.__iadd__(t, x)`, `getattr(t, "__setitem__")`, an operator method of the NumPy
# view (`t.numpy().__iadd__`), `np.asarray(t).__setitem__`, `t.__ior__` on a bool mask.
import numpy as np
import torch

torch.set_num_threads(1)
xs = torch.arange(1.0, 7.0).reshape(3, 2)
rows = []
for epoch in range(3):
    a = torch.zeros(2)
    b = torch.zeros(2)
    c = torch.zeros(2)
    d = torch.zeros(2)
    e = torch.zeros(2)
    m = torch.zeros(2, dtype=torch.bool)
    for i, x in enumerate(xs):
        type(a).__setitem__(a, 0, a[0] + x[0])
        torch.Tensor.__iadd__(b, x)
        getattr(c, "__setitem__")(1, c[1] + 1)
        d.numpy().__iadd__(1.0)
        np.asarray(e).__setitem__(0, float(i) + e[0].item())
        m.__ior__(x > 3)
    rows.append([t.sum().item() for t in (a, b, c, d, e, m.float())])
print("tables", rows)

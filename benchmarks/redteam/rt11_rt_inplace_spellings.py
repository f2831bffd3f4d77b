# corpus: runnable
# Per-epoch tables written in place by spellings other than a method on the name: `__setitem__`
# called explicitly, `index_put_` with a tuple, `masked_fill_` through `torch.Tensor`, writes
# through `np.asarray(t)` and `t.__array__()`, through a DLPack capsule, a `memoryview` of the
# NumPy view, `torch.Tensor.__setitem__` and `operator.setitem`.
import operator

import numpy as np
import torch

torch.set_num_threads(1)
xs = torch.arange(1.0, 9.0).reshape(4, 2)
rows = []
for epoch in range(3):
    a = torch.zeros(2)
    b = torch.zeros(2)
    c = torch.ones(2)
    d = torch.zeros(2)
    e = torch.zeros(2)
    f = torch.zeros(2)
    h = torch.zeros(2)
    k = torch.zeros(2)
    m = torch.zeros(2)
    for i, x in enumerate(xs):
        a.__setitem__(0, a[0] + x[0])
        b.index_put_((torch.tensor([1]),), x[1:], accumulate=True)
        torch.Tensor.masked_fill_(c, x > 4, float(i))
        np.asarray(d)[0] += 1
        e.__array__()[1] += float(x[0])
        torch.utils.dlpack.from_dlpack(torch.utils.dlpack.to_dlpack(f))[0] += 2
        memoryview(h.numpy())[1] = float(i)
        torch.Tensor.__setitem__(k, 1, k[1] + 1)
        operator.setitem(m, 0, m[0] + x[1])
    rows.append([t.sum().item() for t in (a, b, c, d, e, f, h, k, m)])
print("tables", rows)

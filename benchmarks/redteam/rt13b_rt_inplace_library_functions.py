# corpus: runnable
# Wave 2: tensors and arrays changed in place by library functions whose name does not end the
# receiver chain: `torch.ops.aten.mul_`, `torch.ops.aten.add_.Tensor`, `operator.iadd` /
# `operator.setitem`, `torch._foreach_add_` on a list, `np.put`, `np.fill_diagonal`, `np.putmask`,
# `heapq.heappush` / `bisect.insort` on a list, `torch.Tensor.mul_(t, 2)` unbound.
import bisect
import heapq
import operator

import numpy as np
import torch

torch.set_num_threads(1)
out = {}


a = torch.ones(3)
rows = []
for step in range(3):
    t = torch.tensor(a.tolist())
    torch.ops.aten.mul_(a, 2)
    rows.append(t.tolist())
out["aten.mul_"] = rows

b = torch.ones(3)
rows = []
for step in range(3):
    t = torch.tensor(b.tolist())
    torch.ops.aten.add_.Tensor(b, b)
    rows.append(t.tolist())
out["aten.add_.Tensor"] = rows

c = torch.ones(3)
rows = []
for step in range(3):
    t = torch.tensor(c.tolist())
    operator.iadd(c, 1)
    rows.append(t.tolist())
out["operator.iadd"] = rows

d = torch.zeros(3)
rows = []
for step in range(3):
    t = torch.tensor(d.tolist())
    operator.setitem(d, 0, float(step + 1))
    rows.append(t.tolist())
out["operator.setitem"] = rows

e = torch.ones(2)
rows = []
for step in range(3):
    t = torch.tensor(e.tolist())
    torch._foreach_add_([e], 1.0)
    rows.append(t.tolist())
out["_foreach_add_"] = rows

f = np.zeros(3)
rows = []
for step in range(3):
    t = torch.tensor(f)
    np.put(f, [0], [step + 1.0])
    rows.append(t.tolist())
out["np.put"] = rows

g = np.zeros((2, 2))
rows = []
for step in range(3):
    t = torch.tensor(g)
    np.fill_diagonal(g, step + 1.0)
    rows.append(t.tolist())
out["np.fill_diagonal"] = rows

h = [3.0, 1.0]
rows = []
for step in range(3):
    t = torch.tensor(h)
    heapq.heappush(h, 0.5 * step)
    rows.append(t.tolist())
out["heappush"] = rows

k = [1.0, 5.0]
rows = []
for step in range(3):
    t = torch.tensor(k)
    bisect.insort(k, 2.0 + step)
    rows.append(t.tolist())
out["insort"] = rows

m = torch.ones(2)
rows = []
for step in range(3):
    t = torch.tensor(m.tolist())
    torch.Tensor.mul_(m, 3)
    rows.append(t.tolist())
out["Tensor.mul_ unbound"] = rows

n = np.ones(3)
rows = []
for step in range(3):
    t = torch.tensor(n)
    np.putmask(n, n > 0, n + 1)
    rows.append(t.tolist())
out["np.putmask"] = rows

p = torch.zeros(3)
rows = []
for step in range(3):
    t = torch.tensor(p.tolist())
    torch.index_put_(p, (torch.tensor([0]),), torch.tensor([step + 1.0]))
    rows.append(t.tolist())
out["index_put_"] = rows
for k_, v in out.items():
    print(k_, v)

# corpus: runnable
# Tensors built from iterators the loop consumes: a generator expression, `map`, `zip`, an
# `iter()` over a list, a file-like object's `read()`, a `csv.reader` - each empty after its
# first use, so building the tensor once changes every later epoch.
import csv
import io

import torch

torch.set_num_threads(1)
ids = (i for i in range(4))
sq = map(lambda v: v * v, [1, 2, 3])
pairs = zip([1.0, 2.0], [3.0, 4.0])
it = iter([0.5, 1.5, 2.5])
buf = io.StringIO("1,2,3\n")
rdr = csv.reader(io.StringIO("4,5\n6,7\n"))
rows = []
for epoch in range(3):
    a = torch.tensor(list(ids), dtype=torch.float32)
    b = torch.tensor(list(sq), dtype=torch.float32)
    c = torch.tensor(list(pairs))
    d = torch.tensor(list(it))
    e = torch.tensor([float(v) for v in buf.read().split(",") if v.strip()])
    f = torch.tensor([[float(v) for v in r] for r in rdr])
    rows.append((a.numel(), b.numel(), c.numel(), d.numel(), e.numel(), f.numel()))
print("consumed", rows)


def gen():
    for k in range(3):
        yield float(k)


g = gen()
vals = []
for epoch in range(2):
    t = torch.tensor([v for v in g])
    vals.append(t.sum().item())
print("generator", vals)

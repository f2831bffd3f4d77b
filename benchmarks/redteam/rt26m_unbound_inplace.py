# corpus: runnable
# Red team 26m, wave 1: in-place methods reached without `tensor.method_(...)` syntax, so the
# tensor written is an argument, not the receiver: `torch.Tensor.add_(buf, x)`,
# `torch.relu_(h)` / `torch.fill_`, `getattr(torch.Tensor, "mul_")(w, 2)`, a
# `functools.partial(torch.Tensor.copy_, dst)`, `operator.iadd(t, x)`.
import functools
import operator

import torch

torch.set_num_threads(1)
torch.manual_seed(2603)
log = []

buf = torch.zeros(4)
for step in range(3):
    torch.Tensor.add_(buf, torch.randn(4))
    b = torch.tensor(buf.numpy())
    log.append(round(float(b.sum()), 4))

h = torch.randn(6)
for step in range(3):
    h -= 0.3
    torch.relu_(h)
    hr = torch.as_tensor(h.numpy()).float()
    log.append(round(float(hr.sum()), 4))

f = torch.zeros(3)
for step in range(3):
    torch.fill_(f, float(step))
    ff = torch.tensor(f.numpy())
    log.append(float(ff.sum()))

w = torch.ones(3)
for step in range(3):
    getattr(torch.Tensor, "mul_")(w, 2.0)
    ww = torch.tensor(w.numpy())
    log.append(float(ww.sum()))

dst = torch.zeros(3)
put = functools.partial(torch.Tensor.copy_, dst)
for step in range(3):
    put(torch.full((3,), float(step + 1)))
    dd = torch.tensor(dst.numpy())
    log.append(float(dd.sum()))

acc = torch.zeros(2)
for step in range(3):
    operator.iadd(acc, torch.ones(2))
    aa = torch.tensor(acc.numpy())
    log.append(float(aa.sum()))
print("unbound in-place", log)

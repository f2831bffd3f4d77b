# corpus: runnable
# Red team 26m, wave 1: ATen operators called through `torch.ops.aten`, whose in-place overloads
# take the tensor they write as their first argument (`torch.ops.aten.add_.Tensor(buf, x)`), and
# the private ops that write a non-self argument (`_native_batch_norm_legit`'s running stats,
# `_cummax_helper`'s values / indices).
import torch

torch.set_num_threads(1)
torch.manual_seed(2602)
log = []

buf = torch.zeros(5)
for step in range(3):
    x = torch.randn(5)
    torch.ops.aten.add_.Tensor(buf, x)
    acc = torch.tensor(buf.numpy())
    log.append(round(float(acc.sum()), 4))

scale = torch.ones(5)
for step in range(3):
    torch.ops.aten.mul_(scale, 1.5)
    s = torch.as_tensor(scale.numpy()).double()
    log.append(round(float(s.sum()), 4))

dst = torch.zeros(4)
for step in range(3):
    src = torch.arange(4.0) * step
    torch.ops.aten.copy_.default(dst, src)
    d = torch.tensor(dst.numpy())
    log.append(float(d.sum()))

rm, rv = torch.zeros(3), torch.ones(3)
for step in range(3):
    x = torch.randn(7, 3) + step
    torch.ops.aten._native_batch_norm_legit(x, None, None, rm, rv, True, 0.5, 1e-5)
    m = torch.tensor(rm.numpy())
    log.append(round(float(m.sum()), 4))

vals, idx = torch.zeros(6), torch.zeros(6, dtype=torch.long)
for step in range(3):
    x = torch.randn(6) + step
    torch._cummax_helper(x, vals, idx, 0)
    v = torch.tensor(vals.numpy())
    log.append(round(float(v.sum()), 4))
print("aten op forms", log)

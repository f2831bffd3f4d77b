# corpus: runnable
# Red team 26m (mutation), wave 1: the normalisation calls that update the running statistics they
# are handed although no name ends in `_` (ATen `Tensor(a!) running_mean`): `F.batch_norm` with
# `training=True` (keyword and positional), `F.instance_norm` with running stats, `torch.batch_norm`,
# `torch.native_batch_norm`, `torch.batch_norm_update_stats`. Each loop then rebuilds a tensor from
# the statistics, which only look loop-invariant.
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(2601)
log = []

rm, rv = torch.zeros(4), torch.ones(4)
for step in range(3):
    x = torch.randn(8, 4) + step
    y = F.batch_norm(x, rm, rv, training=True, momentum=0.5)
    snap = torch.tensor(rm.numpy())
    log.append(round(float(snap.sum() + y.sum()), 4))

rm2, rv2 = torch.zeros(4), torch.ones(4)
for step in range(3):
    x = torch.randn(8, 4) * (step + 1)
    F.batch_norm(x, rm2, rv2, None, None, True, 0.3)
    var_copy = torch.as_tensor(rv2.numpy()).float()
    log.append(round(float(var_copy.sum()), 4))

rm3, rv3 = torch.zeros(3), torch.ones(3)
for step in range(3):
    x = torch.randn(2, 3, 5) + step
    F.instance_norm(x, rm3, rv3, use_input_stats=True, momentum=0.4)
    inst = torch.tensor(rm3.numpy())
    log.append(round(float(inst.sum()), 4))

rm4, rv4 = torch.zeros(4), torch.ones(4)
for step in range(3):
    x = torch.randn(6, 4) - step
    torch.batch_norm(x, None, None, rm4, rv4, True, 0.2, 1e-5, False)
    four = torch.tensor(rm4.numpy())
    log.append(round(float(four.sum()), 4))

rm5, rv5 = torch.zeros(4), torch.ones(4)
for step in range(3):
    x = torch.randn(6, 4) + 2 * step
    torch.native_batch_norm(x, None, None, rm5, rv5, True, 0.25, 1e-5)
    five = torch.tensor(rv5.numpy())
    log.append(round(float(five.sum()), 4))

rm6, rv6 = torch.zeros(4), torch.ones(4)
for step in range(3):
    x = torch.randn(6, 4) * 3 + step
    torch.batch_norm_update_stats(x, rm6, rv6, 0.5)
    six = torch.tensor(rm6.numpy())
    log.append(round(float(six.sum()), 4))
print("batch norm running stats", log)

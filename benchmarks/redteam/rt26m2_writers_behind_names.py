# corpus: runnable
# Red team 26m, wave 2: the wave-1 writers reached through other spellings - an alias of the
# function (`bn = F.batch_norm`, `from torch.nn.functional import batch_norm`), a module's own
# buffers (`F.batch_norm(x, layer.running_mean, ...)`), statistics held in a dict, a flag held in
# a variable, a helper that writes its parameter, and unbound ndarray methods (`np.ndarray.sort(a)`).
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.functional import batch_norm

torch.set_num_threads(1)
torch.manual_seed(2611)
log = []

bn = F.batch_norm
rm, rv = torch.zeros(4), torch.ones(4)
for step in range(3):
    bn(torch.randn(8, 4) + step, rm, rv, training=True)
    a = torch.tensor(rm.numpy())
    log.append(round(float(a.sum()), 4))

rm2, rv2 = torch.zeros(4), torch.ones(4)
for step in range(3):
    batch_norm(torch.randn(8, 4) * 2 + step, rm2, rv2, None, None, True, 0.3)
    b = torch.tensor(rv2.numpy())
    log.append(round(float(b.sum()), 4))

layer = nn.BatchNorm1d(4)
for step in range(3):
    F.batch_norm(torch.randn(8, 4) + step, layer.running_mean, layer.running_var, training=True)
    c = torch.tensor(layer.running_mean.numpy())
    log.append(round(float(c.sum()), 4))

stats = {"mean": torch.zeros(4), "var": torch.ones(4)}
is_train = True
for step in range(3):
    F.batch_norm(torch.randn(8, 4) - step, stats["mean"], stats["var"], training=is_train)
    d = torch.tensor(stats["mean"].numpy())
    log.append(round(float(d.sum()), 4))


def update_stats(buffers, x):
    F.batch_norm(x, buffers[0], buffers[1], training=True, momentum=0.5)


held = [torch.zeros(4), torch.ones(4)]
for step in range(3):
    update_stats(held, torch.randn(8, 4) + 3 * step)
    e = torch.tensor(held[0].numpy())
    log.append(round(float(e.sum()), 4))

arr = np.array([3.0, 1.0, 2.0, 0.5])
for step in range(2):
    np.ndarray.sort(arr)
    f = torch.tensor(arr)
    log.append(float(f[0]))
    arr[0] = 7.0 + step
print("writers behind names", log)

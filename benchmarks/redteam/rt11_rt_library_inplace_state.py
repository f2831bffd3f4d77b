# corpus: runnable
# Per-epoch statistics reset by assigning a fresh tensor to state that library code later
# changes in place: batch-norm running statistics (the forward updates them), spectral norm's
# power-iteration vector (its pre-hook), a quantisation observer's min/max (its forward copies
# into them), and buffers handed to torch.func.functional_call (batch norm updates them).
import torch
import torch.nn as nn
from torch.ao.quantization import MinMaxObserver
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 8, 3)

bn = nn.BatchNorm1d(3)
means = []
for epoch in range(3):
    bn.running_mean = torch.zeros(3)
    bn.running_var = torch.ones(3)
    for x in xs:
        bn(x + epoch)
    means.append([round(v, 4) for v in bn.running_mean.tolist()])
print("batchnorm", means)

sn = torch.nn.utils.spectral_norm(nn.Linear(3, 3))
us = []
for epoch in range(3):
    sn.weight_u = torch.full((3,), 0.5)
    for x in xs:
        sn(x)
    us.append(round(sn.weight_u.sum().item(), 4))
print("spectral", us)

obs = MinMaxObserver()
ranges = []
for epoch in range(3):
    obs.min_val = torch.tensor(float("inf"))
    obs.max_val = torch.tensor(float("-inf"))
    for x in xs[: epoch + 1]:
        obs(x * (epoch + 1))
    ranges.append((round(obs.min_val.item(), 4), round(obs.max_val.item(), 4)))
print("observer", ranges)

bn2 = nn.BatchNorm1d(3)
stats = []
for epoch in range(3):
    rm = torch.zeros(3)
    rv = torch.ones(3)
    for x in xs:
        functional_call(bn2, {"running_mean": rm, "running_var": rv}, (x - epoch,))
    stats.append(round(rm.sum().item(), 4))
print("functional_call", stats)

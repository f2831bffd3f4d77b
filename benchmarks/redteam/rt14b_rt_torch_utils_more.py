# corpus: runnable
# More torch utilities that change a module they are given: `parametrizations.weight_norm`
# applied per round, `swa_utils.update_bn` refreshing batch-norm statistics, `remove_weight_norm`
# after `weight_norm`, `prune.identity`, and `vector_to_parameters` called through its module.
import torch
import torch.nn as nn
from torch.nn.utils import convert_parameters, parametrizations, prune
from torch.optim import swa_utils

torch.manual_seed(0)
torch.set_num_threads(1)
lin = nn.Linear(3, 3)
vals = []
for rnd in range(2):
    n = torch.tensor(len(list(lin.named_parameters())))
    parametrizations.weight_norm(lin)
    vals.append(n.item())
print("weight_norm rounds", vals)

model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
loader = [torch.randn(4, 2) * (k + 1) for k in range(2)]
means = []
for rnd in range(2):
    m = torch.tensor(model[1].running_mean.sum().item())
    swa_utils.update_bn(loader, model)
    means.append(round(m.item(), 5))
print("update_bn", means)

lay = nn.Linear(2, 2)
counts = []
for rnd in range(2):
    k = torch.tensor(len(dict(lay.named_buffers())))
    prune.identity(lay, "weight")
    counts.append(k.item())
print("prune.identity", counts)

layer = nn.Linear(2, 1)
sums = []
for rnd in range(3):
    s = torch.tensor(layer.weight.sum().item())
    convert_parameters.vector_to_parameters(torch.full((3,), rnd + 1.0), layer.parameters())
    sums.append(round(s.item(), 4))
print("convert_parameters", sums)

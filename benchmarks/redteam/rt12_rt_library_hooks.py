# corpus: runnable
# Library calls that install hooks or recompute attributes: pruning (`layer.weight` recomputed
# from `weight_orig * weight_mask` by a pre-hook each forward), weight norm (`weight` from g and v),
# a global forward hook installed by `register_module_forward_hook` that scales outputs in place.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)

pruned = nn.Linear(3, 3)
prune.l1_unstructured(pruned, "weight", amount=0.3)
opt = torch.optim.SGD(pruned.parameters(), lr=0.5)
norms = []
for x in xs:
    w_norm = np.linalg.norm(pruned.weight.detach().numpy())
    loss = pruned(x).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    norms.append(round(float(w_norm), 5))
print("pruned norms", norms)

wn = torch.nn.utils.weight_norm(nn.Linear(3, 3))
opt = torch.optim.SGD(wn.parameters(), lr=0.5)
sums = []
for x in xs:
    w = wn.weight.detach().clone()
    snap = torch.tensor(wn.weight.detach().tolist())
    loss = wn(x).pow(2).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sums.append((round(w.sum().item(), 5), round(snap.sum().item(), 5)))
print("weight norm", sums)

handle = nn.modules.module.register_module_forward_hook(lambda m, i, o: o.mul_(0.5) if isinstance(m, nn.Linear) else None)
lin = nn.Linear(3, 3)
res = []
with torch.no_grad():
    for epoch in range(2):
        base = torch.ones(3)
        for x in xs:
            base = lin(base)
        res.append(round(base.sum().item(), 5))
handle.remove()
print("global hook", res)

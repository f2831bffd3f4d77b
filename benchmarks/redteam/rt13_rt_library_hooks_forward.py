# corpus: runnable
# Library hooks that rebind a module attribute at each forward (red team 12's open item): pruning's
# pre-hook recomputes `layer.weight` from `weight_orig * weight_mask`, spectral norm recomputes
# `weight` by a power iteration each training forward, a parametrization recomputes it on each read;
# the loop changes only `weight_orig` / `weight_mask` / the original in place, never `weight` by name.
import torch
import torch.nn as nn
import torch.nn.utils.prune as prune
import torch.nn.utils.parametrize as parametrize

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)

pruned = nn.Linear(3, 3)
prune.l1_unstructured(pruned, "weight", amount=0.3)
snaps = []
for x in xs:
    w = torch.tensor(pruned.weight.tolist())
    out = pruned(x)
    with torch.no_grad():
        pruned.weight_orig.mul_(0.5)
        pruned.weight_mask[0, 0] = 0.0
    snaps.append(round(w.sum().item(), 5))
print("pruned", snaps)

sn = nn.utils.spectral_norm(nn.Linear(3, 3))
seen = []
for x in xs:
    w = torch.tensor(sn.weight.tolist())
    out = sn(x)
    seen.append(round(w.abs().sum().item(), 5))
print("spectral", seen)


class Sym(nn.Module):
    def forward(self, w):
        return w.triu() + w.triu(1).transpose(0, 1)


par = nn.Linear(3, 3)
parametrize.register_parametrization(par, "weight", Sym())
vals = []
for x in xs:
    w = torch.tensor(par.weight.tolist())
    with torch.no_grad():
        par.parametrizations.weight.original.add_(0.25)
    vals.append(round(w.sum().item(), 5))
print("parametrized", vals)

wn = torch.nn.utils.parametrizations.weight_norm(nn.Linear(3, 3))
gs = []
for x in xs:
    g = torch.tensor(wn.weight.tolist())
    with torch.no_grad():
        wn.parametrizations.weight.original0.mul_(1.5)
    gs.append(round(g.sum().item(), 5))
print("weight norm", gs)

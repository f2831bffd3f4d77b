# corpus: runnable
# Iterative magnitude pruning: `prune.l1_unstructured` re-applied each round through the library,
# no forward in the loop; `prune.remove`, `parametrize.register_parametrization`, `weight_norm`
# applied in a loop. The loop reads `layer.weight` (recomputed by each of those calls).
import torch
import torch.nn as nn
from torch.nn.utils import parametrize, prune

torch.manual_seed(0)
torch.set_num_threads(1)
layer = nn.Linear(4, 4)
kept = []
for rnd in range(3):
    live = torch.tensor((layer.weight != 0).sum().tolist())
    prune.l1_unstructured(layer, "weight", amount=0.25)
    kept.append(live.item())
print("l1_unstructured rounds", kept)

lin = nn.Linear(3, 3)
counts = []
for rnd in range(2):
    z = torch.tensor((lin.weight == 0).sum().item())
    prune.random_unstructured(lin, "weight", amount=0.5)
    prune.remove(lin, "weight")
    counts.append(z.item())
print("prune + remove", counts)


class Double(nn.Module):
    def forward(self, w):
        return w * 2


lay = nn.Linear(2, 2)
sums = []
for rnd in range(3):
    s = torch.tensor(lay.weight.sum().item())
    parametrize.register_parametrization(lay, "weight", Double())
    sums.append(round(s.item(), 4))
print("register_parametrization", sums)

model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
sparsity = []
for rnd in range(3):
    params = [(m, "weight") for m in model if isinstance(m, nn.Linear)]
    total_zero = torch.tensor(sum(int((m.weight == 0).sum()) for m, _ in params))
    prune.global_unstructured(params, pruning_method=prune.L1Unstructured, amount=2)
    sparsity.append(total_zero.item())
print("global_unstructured", sparsity)

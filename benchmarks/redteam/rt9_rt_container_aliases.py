# corpus: runnable
# Per-iteration buffers changed through other names that the containers holding them give out:
# tuple unpacking of a pair holding the same tensor twice, a `for` over a tuple literal,
# starred unpacking, `copy.copy` of a list, a dict's `values()`, `itertools.chain`.
import copy
import itertools

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(3, 4)

out1 = []
for x in xs:
    acc = torch.zeros(4)
    pair = (acc, acc)
    first, second = pair
    second.add_(x)
    out1.append(round(first.sum().item(), 5))
print("pair", out1)

out2 = []
for x in xs:
    mask = torch.ones(4)
    for t in (mask,):
        t.mul_(x > 0)
    out2.append(mask.tolist())
print("tuple loop", out2)

out3 = []
for x in xs:
    head, *rest = [torch.zeros(2), torch.ones(2)]
    rest[0].add_(x[:2])
    out3.append(rest[0].tolist())
print("starred", out3)

out4 = []
for x in xs:
    bufs = [torch.zeros(4)]
    view = copy.copy(bufs)
    view[0].add_(x)
    out4.append(round(bufs[0].sum().item(), 5))
print("copied list", out4)

out5 = []
for x in xs:
    state = {"m": torch.zeros(4), "v": torch.ones(4)}
    for s in state.values():
        s.mul_(0.9).add_(x)
    out5.append(round(state["m"].sum().item() + state["v"].sum().item(), 5))
print("dict values", out5)

out6 = []
for x in xs:
    a = torch.zeros(2)
    b = torch.zeros(2)
    for t in itertools.chain([a], [b]):
        t.add_(x[:2])
    out6.append((a + b).tolist())
print("chain", out6)

# corpus: runnable
# Per-epoch tensors kept in containers by forms other than `append`: slice assignment, list
# concatenation rebinding a class attribute, `insert`, `setdefault`, `extend`, `vars(obj)[k] =`,
# `heapq.heappush`. The kept tensors are changed in place later; one tensor built once would be
# the same object in every slot.
import heapq

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)


class Registry:
    items = []


class Box:
    pass


slots, firsts, by_epoch, extended, heap = [], [], {}, [], []
box = Box()
for epoch in range(3):
    a = torch.zeros(3)
    slots[len(slots):] = [a]
    b = torch.ones(3)
    Registry.items = Registry.items + [b]
    c = torch.full((3,), 2.0)
    firsts.insert(0, c)
    d = torch.zeros(2)
    by_epoch.setdefault(epoch, d)
    e = torch.ones(2)
    extended.extend((e,))
    f = torch.zeros(1)
    vars(box)["e%d" % epoch] = f
    g = torch.ones(1)
    heapq.heappush(heap, (epoch, id(g) * 0, g))
    for t in (slots[-1], Registry.items[-1], firsts[0], by_epoch[epoch], extended[-1], vars(box)["e%d" % epoch], heap[-1][2]):
        t.add_(xs[epoch, 0])
print([round(t.sum().item(), 4) for t in slots])
print([round(t.sum().item(), 4) for t in Registry.items])
print([round(t.sum().item(), 4) for t in firsts])
print([round(t.sum().item(), 4) for t in by_epoch.values()])
print([round(t.sum().item(), 4) for t in extended])
print(sorted((k, round(v.sum().item(), 4)) for k, v in vars(box).items()))
print([round(t[2].sum().item(), 4) for t in heap])

# corpus: runnable
# Constants built between `torch.manual_seed` and the draws that follow, where the constant's
# construction draws from the generator itself: a freshly initialised `nn.Linear`'s weight, a
# `nn.Dropout` applied to a constant, `torch.empty(...).normal_()`, a helper drawing its init.
import torch
import torch.nn as nn

torch.set_num_threads(1)


def init_table():
    return torch.empty(3).uniform_(-1, 1)


rows = []
for epoch in range(3):
    torch.manual_seed(epoch)
    proj = nn.Linear(3, 3).weight.detach()
    table = init_table()
    drop = nn.functional.dropout(torch.ones(4), p=0.5, training=True)
    noise = torch.randn(3)
    rows.append((round(proj.sum().item(), 4), round(table.sum().item(), 4), drop.tolist(), round(noise.sum().item(), 4)))
print("seeded", rows)

g = torch.Generator().manual_seed(0)
vals = []
for epoch in range(3):
    base = torch.ones(3)
    perm = torch.randperm(3, generator=g)
    vals.append(base[perm].tolist() + [torch.rand(1, generator=g).item()])
print("generator", vals)

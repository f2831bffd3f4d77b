# corpus: runnable
# Random streams: `torch.manual_seed` inside the loop, an explicit `generator=`, dropout applied
# to a constant mask, `rand_like` of a constant, `bernoulli_` / `uniform_` / `normal_` chained on a
# constant factory, and a constant factory drawn between two random draws.
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
g = torch.Generator().manual_seed(3)
rows = []
for epoch in range(3):
    torch.manual_seed(epoch)
    noise = torch.randn(3)
    mask = F.dropout(torch.ones(3), 0.5)
    jit = torch.rand_like(torch.zeros(3))
    coin = torch.ones(3).bernoulli_(0.5)
    uni = torch.empty(3).uniform_(-1, 1)
    nor = torch.zeros(3).normal_(generator=g)
    perm = torch.arange(6)[torch.randperm(6)][:3].float()
    drawn = torch.randn(3, generator=g)
    rows.append(round((noise + mask + jit + coin + uni + nor + perm + drawn).sum().item(), 4))
print("streams", rows)

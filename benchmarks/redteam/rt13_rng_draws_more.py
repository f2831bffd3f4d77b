# corpus: runnable
# Factory-like calls that draw from the global generator: `F.rrelu` in training mode,
# `F.gumbel_softmax`, an `nn.Dropout` module applied to a constant, `torch.multinomial`, `torch.poisson`,
# `torch.bernoulli` of a constant, `torch.normal(mean, std)`, `torch.distributions` samples, `nn.init`
# on a fresh tensor, `random_()`; moving any of them out of the loop changes the random stream.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
drop = nn.Dropout(0.5)
probs = torch.tensor([0.2, 0.3, 0.5])
res = []
for step in range(3):
    a = F.rrelu(-torch.ones(3), training=True)
    b = F.gumbel_softmax(torch.zeros(3), tau=1.0)
    c = drop(torch.ones(4))
    d = torch.multinomial(probs, 2)
    e = torch.poisson(torch.full((3,), 2.0))
    f = torch.bernoulli(torch.full((3,), 0.5))
    g = torch.normal(torch.zeros(2), torch.ones(2))
    h = torch.distributions.Normal(torch.zeros(2), torch.ones(2)).sample()
    i = nn.init.kaiming_uniform_(torch.empty(2, 2))
    j = torch.empty(3, dtype=torch.int64).random_(0, 10)
    k = torch.randn(2)
    res.append([round(v.float().sum().item(), 4) for v in (a, b, c, d, e, f, g, h, i, j, k)])
for r in res:
    print(r)

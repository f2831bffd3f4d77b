# corpus: runnable
# Noise drawn from random-number *objects* (NumPy Generator / RandomState, random.Random,
# torch.distributions) inside the training loop: every call gives other numbers, so the
# tensor built from them is not loop-invariant even though its arguments are constants.
import random

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
rs = np.random.RandomState(1)
pyrng = random.Random(2)
prior = torch.distributions.Normal(torch.zeros(3), torch.ones(3))
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 3)
y = torch.randn(8, 1)

for epoch in range(3):
    noise = torch.tensor(rng.standard_normal(3), dtype=torch.float32)  # paef: refuse redundant-tensor
    scale = torch.tensor(rs.gamma(2.0, size=3), dtype=torch.float32)  # paef: refuse redundant-tensor
    shift = torch.tensor([pyrng.gauss(0.0, 1.0) for _ in range(3)])  # paef: refuse redundant-tensor
    beta = torch.as_tensor(rng.beta(2.0, 5.0, size=3), dtype=torch.float32)  # paef: refuse redundant-tensor
    z = torch.as_tensor(prior.sample())  # paef: refuse redundant-tensor
    xb = x * scale + noise + shift + beta + z
    loss = ((model(xb) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 5))

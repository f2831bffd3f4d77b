"""Tiny regression with very short steps (well under 1 ms each, 800 of them): the data set is a
dict of Python lists, and each batch's tensors are built from its slices."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
data = {"x": [[random.gauss(0, 1) for _ in range(24)] for _ in range(6400)],
        "y": [random.gauss(0, 1) for _ in range(6400)]}
model = nn.Linear(24, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
bs = 32
tx, ty = torch.tensor(data["x"]), torch.tensor(data["y"]).unsqueeze(1)
for step in range(800):
    a = (step * bs) % 6400
    xb = tx[a:a + bs]
    yb = ty[a:a + bs]
    loss = F.mse_loss(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())

"""Graph regression with two antipatterns in one loop: the adjacency matrix is rebuilt from a
nested Python list every step (costly), and a small per-step NumPy statistic of a short constant
list (cheap). The first dominates."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n = 400
adj_rows = [[1.0 if (i - j) % 7 == 0 or abs(i - j) == 1 else 0.0 for j in range(n)] for i in range(n)]
scales = [0.5, 1.0, 2.0]
feats, target = torch.randn(n, 32), torch.randn(n, 1)
lin1, lin2 = nn.Linear(32, 32), nn.Linear(32, 1)
opt = torch.optim.Adam(list(lin1.parameters()) + list(lin2.parameters()), lr=1e-3)
adj = torch.tensor(adj_rows)
for step in range(30):
    s = float(np.mean(scales))
    h = F.relu(adj @ lin1(feats)) * s
    loss = F.mse_loss(lin2(h), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())

# corpus: runnable
# Red team 30b, wave 1 (blind): snap.py copies each parameter to a fresh tensor through its host list;
# this caller keeps the copies while the optimizer changes the parameters in place, then measures drift.
import torch
import torch.nn as nn
import torch.nn.functional as F

from snap import drift, snapshot

torch.manual_seed(0)
torch.set_num_threads(1)
g = torch.Generator().manual_seed(1)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
data = [(torch.randn(16, 4, generator=g), torch.randn(16, 1, generator=g)) for _ in range(6)]
start = snapshot(model)
for epoch in range(3):
    for x, y in data:
        loss = F.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "drift", drift(model, start))

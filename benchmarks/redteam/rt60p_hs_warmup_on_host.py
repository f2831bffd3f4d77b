# corpus: runnable
# Red team 60 probe (NOT blind): a script that warms up on the host for two epochs (cheap, while the GPU is
# busy) and moves the model and data to the device inside the epoch loop; the epoch losses are summed into a
# running total and kept in a history. Near miss: a second run that moves nothing inside its loop.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6012)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
X = torch.randn(300, 6)
y = (X[:, :2].sum(1) > 0).long()
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
total = 0.0
for epoch in range(6):
    if epoch == 2:
        model.to(device)
        X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
print('warm-up run', round(total, 6))

steady_total = 0.0
for epoch in range(6):
    loss = F.cross_entropy(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    steady_total += loss.item()
print('checksum', round(total + steady_total, 6))

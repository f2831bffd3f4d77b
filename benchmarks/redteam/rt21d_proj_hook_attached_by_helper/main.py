# corpus: runnable
# Red team 21 (attack on its own fix): a helper function of a local module registers forward hooks
# on every layer of the model (no class of the local module is built); the hooks count outputs
# that require grad.
import torch
import torch.nn.functional as F
from torch import nn

from monitor import attach, stats

torch.set_num_threads(1)
torch.manual_seed(21)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = attach(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(4)]
for x, y in data:
    loss = F.cross_entropy(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()

model.eval()
correct = 0
for x, y in data:
    correct += int((model(x.to(device)).argmax(1) == y.to(device)).sum())
print("eval", correct, stats)

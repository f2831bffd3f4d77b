# corpus: runnable
# Red team 51 probe (NOT blind: written after first contact, aimed at eval-without-no-grad on a module fixed
# on its own with a HANDED model): the model's layer (models.py) caches a parameter-derived weight across
# calls, keyed on the raw weight's version. The evaluation each epoch fills the cache; the first training
# step after it reuses the cached weight, so whether the evaluation recorded a graph decides whether that
# step trains the layer.
import torch
import torch.nn.functional as F

from evaluate import accuracy
from models import Net

torch.manual_seed(5112)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(62)
X = torch.randn(72, 6, generator=g)
Y = ((X[:, 0] + X[:, 1] * X[:, 2]) > 0).long() + (X[:, 5] > 1.0).long()
train = [(X[i:i + 12], Y[i:i + 12]) for i in range(0, 48, 12)]
val = [(X[i:i + 12], Y[i:i + 12]) for i in range(48, 72, 12)]

model = Net().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(6):
    acc = accuracy(model, val, device)
    for x, y in train:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, f'{acc:.6f}', f'{loss.item():.10f}', f'{model.body.weight.norm().item():.10f}')

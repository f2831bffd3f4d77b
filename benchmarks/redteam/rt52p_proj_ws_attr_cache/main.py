# corpus: runnable
# Red team 52 probe (not blind): a model whose layer (models.py) caches its standardised weight on the module
# attribute with the version it was computed at; the evaluation loop here runs between epochs with autograd on,
# so the first training step after it reuses the cached weight (and its graph).
import torch
import torch.nn.functional as F

from models import Net

torch.manual_seed(5211)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
X = torch.randn(64, 6, device=device)
Y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()
model = Net().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
hist = []
for epoch in range(4):
    model.train()
    for i in range(0, 64, 16):
        loss = F.cross_entropy(model(X[i:i + 16]), Y[i:i + 16])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    for i in range(0, 64, 32):
        correct += (model(X[i:i + 32]).argmax(1) == Y[i:i + 32]).sum().item()
    hist.append((correct, round(model.body.weight.norm().item(), 5)))
print('hist', hist)
print('checksum', round(sum(c + w for c, w in hist), 5))

# corpus: runnable
import torch
from helpers import fit_batch
import helpers as H
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
for x, y in data:
    x, y = x.to(device), y.to(device)
    pred = model(x)
    fit_batch(model, opt, x, y)
for x, y in data:
    x, y = x.to(device), y.to(device)
    pred = model(x)
    H.fit_batch(model, opt, x, y)
def score(batch):
    return model(batch[0].to(device)).sum()
total = 0
for b in data:
    total = total + score(b)
total.backward()
print(model.weight.grad.sum().item())
print(model.weight.sum().item())

# corpus: runnable
# Red team 47 PROBE (not blind; written after first contact): evaluation loops whose ITERATION runs program
# code that needs autograd: a loader wrapper class whose `__iter__` crafts adversarial batches with
# `torch.autograd.grad`, and a DataLoader whose collate_fn does the same with the global model. Each
# `next()` runs inside the loop, so under no_grad the gradient call has no graph.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(4)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

X = torch.randn(40, 5)
Y = (X[:, 0] - X[:, 3] > 0).long()
model = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)


class AdversarialView:
    def __init__(self, loader, eps):
        self.loader = loader
        self.eps = eps

    def __iter__(self):
        for x, y in self.loader:
            x = x.to(device).requires_grad_(True)
            loss = F.cross_entropy(model(x), y.to(device))
            (g,) = torch.autograd.grad(loss, x)
            yield (x + self.eps * g.sign()).detach(), y


def adversarial_collate(rows):
    x = torch.stack([r[0] for r in rows]).to(device).requires_grad_(True)
    y = torch.stack([r[1] for r in rows])
    (g,) = torch.autograd.grad(F.cross_entropy(model(x), y.to(device)), x)
    return (x + 0.2 * g.sign()).detach(), y


clean = DataLoader(TensorDataset(X, Y), batch_size=8, shuffle=False)
attacked = DataLoader(TensorDataset(X, Y), batch_size=8, shuffle=False, collate_fn=adversarial_collate)
for epoch in range(3):
    for x, y in clean:
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()

model.eval()
hits = 0
for x, y in AdversarialView(clean, 0.2):
    hits += (model(x).argmax(1).cpu() == y).sum().item()
print("wrapper robust acc %.6f" % (hits / len(Y)))

hits = 0
for x, y in attacked:
    hits += (model(x).argmax(1).cpu() == y).sum().item()
print("collate robust acc %.6f" % (hits / len(Y)))

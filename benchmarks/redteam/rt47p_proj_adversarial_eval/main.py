# corpus: runnable
# Red team 47 PROBE (not blind; written after first contact): the first contact's eval-without-no-grad
# rewrite wrapped `for x, y in batches:` of an evaluation helper in `torch.no_grad()`. Here a caller hands
# that helper a GENERATOR of adversarial batches (FGSM) whose body runs at each `next()`, i.e. inside the
# helper's loop, and needs autograd for `torch.autograd.grad`.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from attacks import fgsm_batches
from train import evaluate, train_pass

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(1)
X = torch.randn(40, 5, generator=g)
Y = X @ torch.randn(5, generator=g)
loader = DataLoader(TensorDataset(X, Y), batch_size=8, shuffle=False)
model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 1)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    train_pass(model, opt, loader, device)
    print("epoch", epoch, "clean mse %.10f" % evaluate(model, loader, device))

dev_batches = [(x.to(device), y.to(device)) for x, y in loader]
print("robust mse %.10f" % evaluate(model, fgsm_batches(model, dev_batches, 0.05), device))

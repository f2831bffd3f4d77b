# corpus: runnable
# Red team 57 probe (not blind): the objective of a full-batch optimiser is summed over batches by helpers
# of another module (objectives.py), one through an accumulator object; the caller back-propagates what
# they return (an LBFGS closure, then plain full-batch steps). A no_grad around the helpers' loops would
# stop training; the accuracy helper is a real evaluation.
import torch
import torch.nn as nn

from objectives import Accumulator, accuracy, epoch_objective, objective

torch.manual_seed(5724)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5724)
X = torch.randn(80, 5, generator=g)
Y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).long() + (X[:, 3] > 1).long()
batches = [(X[i:i + 16].to(device), Y[i:i + 16].to(device)) for i in range(0, 80, 16)]
model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 3)).to(device)
lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5)


def closure():
    lbfgs.zero_grad()
    loss = epoch_objective(model, batches, Accumulator())
    loss.backward()
    return loss


for it in range(3):
    print('lbfgs', it, f'{lbfgs.step(closure).item():.8f}', 'acc', accuracy(model, batches))
sgd = torch.optim.SGD(model.parameters(), lr=0.1)
for it in range(4):
    sgd.zero_grad()
    o = objective(model, batches)
    o.backward()
    sgd.step()
final = objective(model, batches).item()
print(f'final {final:.8f} acc {accuracy(model, batches):.4f}')
print('checksum', round(final + accuracy(model, batches), 6))

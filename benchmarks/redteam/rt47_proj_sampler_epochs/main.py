# corpus: runnable
# Red team 47 (blind): an epoch phase driven by a sampler whose order depends on `set_epoch` and which
# records, lazily inside its `__iter__`, the labels it hands out; the loop weights the loss by the running
# positive rate of that history. Then a step-based phase over an infinite sampler, drawn by hand with
# `iter(loader)` / `next(...)`, and a probe batch taken with `next(iter(val_loader))` twice.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from sampling import EpochAwareSampler, InfiniteSampler

torch.manual_seed(8)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(21)
X = torch.randn(32, 6, generator=g)
Y = (X[:, :2].sum(1) > 0.3).float()
data = TensorDataset(X, Y)
sampler = EpochAwareSampler(Y.tolist(), seed=5)
loader = DataLoader(data, batch_size=8, sampler=sampler)
model = nn.Linear(6, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.3)

for epoch in range(3):
    sampler.set_epoch(epoch)
    epoch_losses = []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        seen = torch.tensor(sampler.history)
        pos_rate = seen.mean().clamp(0.05, 0.95)
        pos_weight = ((1 - pos_rate) / pos_rate).to(device)
        loss = F.binary_cross_entropy_with_logits(model(x).squeeze(1), y, pos_weight=pos_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_losses.append(loss.detach())
    print("epoch", epoch, "history", len(sampler.history), "pos_rate %.9f" % pos_rate.item(),
          "losses", ["%.9f" % v for v in torch.tensor(epoch_losses).tolist()])

stream = iter(DataLoader(data, batch_size=6, sampler=InfiniteSampler(len(data), seed=3)))
ema = None
for step in range(7):
    x, y = next(stream)
    x, y = x.to(device), y.to(device)
    loss = F.binary_cross_entropy_with_logits(model(x).squeeze(1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema = loss.item() if ema is None else 0.8 * ema + 0.2 * loss.item()
print("ema %.12f" % ema)

val_loader = DataLoader(data, batch_size=5, shuffle=True, generator=torch.Generator().manual_seed(1))
probe_a = next(iter(val_loader))
probe_b = next(iter(val_loader))
with torch.no_grad():
    for name, (x, y) in (("a", probe_a), ("b", probe_b)):
        p = torch.sigmoid(model(x.to(device))).squeeze(1).cpu()
        print(name, y.tolist(), ["%.8f" % v for v in p.tolist()])

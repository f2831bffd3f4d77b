# corpus: runnable
# Red team 51 probe (NOT blind: written after first contact, aimed at host-sync's inserted
# `torch.as_tensor(...)` line and eval-without-no-grad's `with torch.no_grad():` in modules fixed on their own):
# engine.py binds no `torch` name (`from torch import nn, no_grad`), aliased.py imports `torch as th`.
import torch

import aliased
import engine

torch.manual_seed(5116)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(66)
X = torch.randn(60, 4, generator=g)
Y = torch.bucketize(X[:, 0] - X[:, 2], torch.tensor([-0.4, 0.4]))
train = [(X[i:i + 12], Y[i:i + 12]) for i in range(0, 36, 12)]
val = [(X[i:i + 12], Y[i:i + 12]) for i in range(36, 60, 12)]
model = engine.build(10).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
for epoch in range(4):
    a = engine.train_epoch(model, train, opt, device)
    b = aliased.train_epoch(model, train, opt, device)
    total, hits = engine.evaluate(model, val, device)
    print(epoch, repr(a), repr(b), repr(total), hits)
print(engine.predict(model, X[:8].to(device)).tolist())

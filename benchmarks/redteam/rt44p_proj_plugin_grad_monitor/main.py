# corpus: runnable
# Red team 44 probe (after first contact, not blind): a plugin named in a config list is imported with
# importlib.import_module; it installs a global module forward hook that registers a gradient hook on
# every module output (written for training, unguarded): under no_grad it raises.
import importlib

import torch
import torch.nn as nn
import torch.nn.functional as F

PLUGINS = ["gradmon"]  # monitoring plugins, as a config file would list them
plugins = [importlib.import_module(name) for name in PLUGINS]
gradmon = plugins[0]

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(5)
X = torch.randn(48, 4, generator=g)
Y = (X[:, 0] > X[:, 1]).long()
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for i in range(0, 32, 8):
        loss = F.cross_entropy(model(X[i:i + 8].to(device)), Y[i:i + 8].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "%.10f" % loss.item())

model.eval()
preds = []
for i in range(32, 48, 8):
    logits = model(X[i:i + 8].to(device))
    preds.append(logits.argmax(1))
print("preds", torch.cat(preds).tolist())
print("monitored", {k: (len(v), v[-1]) for k, v in sorted(gradmon.norms.items())})

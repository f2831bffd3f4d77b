# corpus: runnable
# Red team 22 (wave 3, attacking the fixes): a view registered into a global list by a helper, a pair returned by a
# set-up function (tensor, [its numpy view]), a getter of a global view, a dict comprehension of state_dict views,
# a DataLoader made by a helper, a method storing into its object, functools.partial over a view
import functools
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
torch.set_num_threads(1)
torch.manual_seed(22)
REG = []
def register(a):
    REG.append(a)
def setup():
    t = torch.zeros(4)
    return t, [t.numpy()]
def getter():
    return g_np
def make_loader(d):
    return DataLoader(d, batch_size=4, shuffle=True)
class Bank:
    def __init__(self):
        self.items = []
    def add(self, a):
        self.items.append(a)
t1 = torch.zeros(4)
register(t1.numpy())
h1 = REG[0]
state, held = setup()
h2 = held[0]
g = torch.zeros(4)
g_np = g.numpy()
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
snap = {k: v.numpy() for k, v in model.state_dict().items()}
ds = TensorDataset(torch.randn(8, 4), torch.arange(8))
loader = make_loader(ds)
t5 = torch.zeros(4)
bank = Bank()
bank.add(t5.numpy())
h5 = bank.items[0]
t6 = torch.zeros(4)
f6 = functools.partial(np.sqrt, t6.numpy())
seen = []
for step in range(3):
    a = np.sqrt(h1)
    b = np.sqrt(h2)
    c = np.sqrt(getter())
    d = np.abs(snap["weight"])
    e = np.array([int(y[0]) for _, y in loader])
    f = np.sqrt(h5)
    k = f6()
    x = torch.randn(8, 4)
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    for t in (t1, state, g, t5, t6):
        t.add_(1.0)
    seen.append([round(float(v.sum()), 4) for v in (a, b, c, d, f, k)] + [e.tolist()])
print(seen)

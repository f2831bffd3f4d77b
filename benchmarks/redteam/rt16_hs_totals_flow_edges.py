# corpus: runnable
# Per-step `.item()` totals whose loop is left in other ways: a `for ... else` reading the total,
# an exception raised out of the loop, `return` in the loop, a generator yielding after the loop,
# a closure asking the total's type, an integer count, a loss accumulated with its graph.
import torch
from torch import nn
torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = model.to(device)
data = [torch.randn(4, 2).to(device) for _ in range(4)]

total = 0.0
for x in data:
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    total += loss.item()
else:
    print("A for-else", repr(total))
print("A after", repr(total))

class Stop(Exception):
    pass
total2 = 0.0
try:
    for i, x in enumerate(data):
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        total2 += loss.item()
        if i == 2:
            raise Stop
except Stop:
    pass
print("B raise", repr(total2))

def run():
    t = 0.0
    for i, x in enumerate(data):
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        t += loss.item()
        if i == 1:
            return t
    return t
print("C return", repr(run()))

def gen():
    t = 0.0
    for x in data:
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        t += loss.item()
    yield t
print("D gen", [repr(v) for v in gen()])

total5 = 0.0
def report():
    return type(total5).__name__
for x in data:
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    total5 += loss.item()
print("E closure", report(), repr(total5))

total6 = 0
for x in data:
    with torch.no_grad():
        out = model(x)
    total6 += (out > 0).sum().item()
print("F", total6, type(total6).__name__)

acc = 0.0
for x in data:
    loss = model(x).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    acc += loss
print("G graph", acc.item() if hasattr(acc, 'item') else acc)

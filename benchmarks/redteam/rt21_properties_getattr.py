# corpus: runnable
# Red team 21: properties, descriptors and __getattr__ with side effects on the values a rewrite
# hoists or moves, and a property that reads a running total.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(21)
device = "cuda" if torch.cuda.is_available() else "cpu"
data = [(torch.randn(8, 4), torch.randn(8, 2)) for _ in range(5)]


class Schedule:
    def __init__(self):
        self._calls = 0

    @property
    def weights(self):
        self._calls += 1
        return [1.0, 1.0 + 0.1 * self._calls]


sched = Schedule()
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
out1 = []
for x, y in data:
    w = torch.tensor(sched.weights, device=device)
    loss = F.mse_loss(model(x.to(device)) * w, y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    out1.append(round(loss.item(), 5))
print("property", out1)


class Lazy:
    def __init__(self):
        self.n = 0

    def __getattr__(self, name):
        self.n += 1
        return [float(self.n), 2.0]


lazy = Lazy()
model2 = nn.Linear(4, 2).to(device)
opt2 = torch.optim.SGD(model2.parameters(), lr=0.05)
out2 = []
for x, y in data:
    m = torch.tensor(lazy.mask, device=device)
    loss = F.mse_loss(model2(x.to(device)) * m, y.to(device))
    opt2.zero_grad()
    loss.backward()
    opt2.step()
    out2.append(round(loss.item(), 5))
print("getattr", out2)


class Counter:
    def __get__(self, obj, objtype=None):
        obj.hits += 1
        return [1.0, float(obj.hits)]


class Holder:
    scale = Counter()

    def __init__(self):
        self.hits = 0


holder = Holder()
model3 = nn.Linear(4, 2).to(device)
opt3 = torch.optim.SGD(model3.parameters(), lr=0.05)
out3 = []
for x, y in data:
    s = torch.tensor(holder.scale, device=device)
    loss = F.mse_loss(model3(x.to(device)) * s, y.to(device))
    opt3.zero_grad()
    loss.backward()
    opt3.step()
    out3.append(round(loss.item(), 5))
print("descriptor", out3)


class Meter:
    @property
    def report(self):
        return repr(total4)


meter = Meter()
model4 = nn.Linear(4, 2).to(device)
opt4 = torch.optim.SGD(model4.parameters(), lr=0.05)
total4 = 0.0
reports = []
for x, y in data:
    loss = F.mse_loss(model4(x.to(device)), y.to(device))
    opt4.zero_grad()
    loss.backward()
    opt4.step()
    total4 += loss.item()
    reports.append(meter.report)
print("property reads total", reports)


class Stats:
    def __init__(self):
        self.count = 0

    def __len__(self):
        return int(self.count) + 2

    def __getattr__(self, name):
        return repr(total5)


st = Stats()
model5 = nn.Linear(4, 2).to(device)
opt5 = torch.optim.SGD(model5.parameters(), lr=0.05)
total5 = 0.0
seen5 = []
for x, y in data:
    loss = F.mse_loss(model5(x.to(device)), y.to(device))
    opt5.zero_grad()
    loss.backward()
    opt5.step()
    total5 += loss.item()
    seen5.append(st.anything)
print("getattr reads total", seen5)

# corpus: runnable
# Second wave: outputs kept on an object by a method's loop and back-propagated by code outside
# the class (the script reads the attribute), by a subclass's method, or by a function given
# the object.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [torch.randn(8, 4) for _ in range(3)]


class Collector:
    def __init__(self, net):
        self.net = net
        self.outs = []

    def collect(self, loader):
        for x in loader:
            self.outs.append(self.net(x.to(device)))


c = Collector(model)
c.collect(data)
loss = torch.stack([o.pow(2).mean() for o in c.outs]).mean()
opt.zero_grad()
loss.backward()
opt.step()
print(round(model.weight.sum().item(), 5))


class Tuner(Collector):
    def tune(self):
        loss = torch.stack([o.logsumexp(-1).mean() for o in self.outs]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


t = Tuner(model)
t.collect(data)
t.tune()
print(round(model.weight.sum().item(), 5))


def adapt(col):
    loss = sum(o.abs().mean() for o in col.outs)
    opt.zero_grad()
    loss.backward()
    opt.step()


c2 = Collector(model)
c2.collect(data)
adapt(c2)
print(round(model.weight.sum().item(), 5))

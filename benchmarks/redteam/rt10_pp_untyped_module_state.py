# corpus: runnable
# NumPy-round-trip snapshots of batch-norm statistics reached through untyped attribute chains:
# a trainer's `self.model.bn`, an `nn.ModuleList` entry, a model handed to a function, `getattr`.
# The forwards between snapshot and comparison update the statistics in place.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4)

    def forward(self, x):
        return self.bn(self.fc(x))


class Trainer:
    def __init__(self, model):
        self.model = model

    def drift(self, xs):
        snap = torch.tensor(self.model.bn.running_mean.cpu().numpy()).to(device)
        for x in xs:
            self.model(x)
        return round((self.model.bn.running_mean - snap).abs().sum().item(), 5)


xs = [torch.randn(8, 4, device=device) for _ in range(3)]
t = Trainer(Net().to(device))
print("trainer", t.drift(xs))

blocks = nn.ModuleList([nn.BatchNorm1d(4), nn.BatchNorm1d(4)]).to(device)
snap = torch.tensor(blocks[1].running_var.cpu().numpy()).to(device)
for x in xs:
    blocks[1](x)
print("list", round((blocks[1].running_var - snap).abs().sum().item(), 5))


def drift_of(net, batches):
    before = torch.tensor(net.bn.running_mean.detach().cpu().numpy()).to(device)
    for x in batches:
        net(x)
    return round((net.bn.running_mean - before).abs().sum().item(), 5)


print("function", drift_of(Net().to(device), xs))
net = Net().to(device)
bn = getattr(net, "bn")
snap2 = torch.tensor(bn.running_mean.cpu().numpy(), device=device)
for x in xs:
    net(x)
print("getattr", round((bn.running_mean - snap2).abs().sum().item(), 5))

# corpus: runnable
# Snapshots of batch-norm statistics reached through objects the analysis does not type: a
# trainer's `self.model.bn`, a network handed to a function, an entry of a `ModuleDict`. The
# forward in training mode updates the running statistics in place after each snapshot.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.bn = nn.BatchNorm1d(3)

    def forward(self, x):
        return self.bn(self.fc(x))


class Trainer:
    def __init__(self, model):
        self.model = model
        self.history = []

    def run(self, batches):
        for x in batches:
            snap = torch.tensor(self.model.bn.running_mean.numpy())
            self.history.append(snap)
            self.model(x)
        return self.history


batches = [torch.randn(4, 3) for _ in range(3)]
t = Trainer(Net())
print("trainer", [h.tolist() for h in t.run(batches)])


def track(net, data):
    seen = []
    for x in data:
        seen.append(torch.tensor(net.bn.running_var.tolist()))
        net(x)
    return seen


print("function", [s.tolist() for s in track(Net(), batches)])

heads = nn.ModuleDict({"a": nn.BatchNorm1d(3)})
kept = []
for x in batches:
    kept.append(torch.tensor(heads["a"].running_mean.cpu().numpy()))
    heads["a"](x)
print("moduledict", [k.tolist() for k in kept])

# corpus: runnable
# Red team 47 PROBE (not blind; written after first contact): the same fact as rt47p_proj_adversarial_eval
# in one file: an evaluation function iterates whatever it is given; one caller gives it a generator that
# crafts adversarial inputs with `torch.autograd.grad` as it is consumed, another a test-time-training
# generator that takes an optimizer step per batch.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(3)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


def evaluate(net, batches):
    net.eval()
    correct = 0
    total = 0
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        correct += (net(x).argmax(1) == y).sum().item()
        total += len(y)
    net.train()
    return correct / total


def adversarial(net, loader, eps):
    for x, y in loader:
        x = x.to(device).requires_grad_(True)
        loss = F.cross_entropy(net(x), y.to(device))
        loss.backward()
        yield (x + eps * x.grad.sign()).detach(), y


def adapted(net, loader, opt):
    for x, y in loader:
        x = x.to(device)
        p = F.softmax(net(x), dim=1)
        ent = -(p * p.clamp_min(1e-8).log()).sum(1).mean()
        opt.zero_grad()
        ent.backward()
        opt.step()
        yield x, y


X = torch.randn(48, 6)
Y = (X[:, 0] + X[:, 1] > 0).long()
loader = DataLoader(TensorDataset(X, Y), batch_size=8, shuffle=False)
net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2)).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(3):
    for x, y in loader:
        loss = F.cross_entropy(net(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "acc %.6f" % evaluate(net, loader))
print("adversarial acc %.6f" % evaluate(net, adversarial(net, loader, 0.3)))
tta_opt = torch.optim.SGD(net.parameters(), lr=0.01)
print("adapted acc %.6f" % evaluate(net, adapted(net, loader, tta_opt)))
print("%.10f" % net[0].weight.sum().item())

# corpus: runnable
# Red team 44 (blind): weight averaging driven by hooks. An EMA copy is updated with lerp_ by an
# optimizer step post-hook, an AveragedModel by the loop, update_bn re-estimates the BN statistics;
# traces of the averaged temperature and of the EMA weights are collected per step.
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel, update_bn

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 12)
        self.bn = nn.BatchNorm1d(12)
        self.fc2 = nn.Linear(12, 2)
        self.log_temp = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x)))) / self.log_temp.exp()


class EMA:
    def __init__(self, model, decay):
        self.decay = decay
        self.module = copy.deepcopy(model).eval()
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for e, p in zip(self.module.parameters(), model.parameters()):
            e.lerp_(p, 1.0 - self.decay)
        for e, b in zip(self.module.buffers(), model.buffers()):
            e.copy_(b)


model = Net().to(device)
ema = EMA(model, decay=0.9)
swa = AveragedModel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
opt.register_step_post_hook(lambda optimizer, args, kwargs: ema.update(model))

g = torch.Generator().manual_seed(11)
xs = torch.randn(64, 4, generator=g)
ys = (xs[:, 0] * xs[:, 1] > 0).long()
loader = [(xs[i:i + 16].to(device), ys[i:i + 16].to(device)) for i in range(0, 64, 16)]

ema_temps, ema_first, swa_temps, losses = [], [], [], []
for epoch in range(4):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        ema_temps.append(ema.module.log_temp.item())
        ema_first.append(ema.module.fc1.weight[0, 0].item())
    swa.update_parameters(model)
    swa_temps.append(swa.module.log_temp.item())

print("losses", torch.tensor(losses)[-4:].tolist())
print("ema temps", ["%.10f" % v for v in torch.tensor(ema_temps)[::3].tolist()])
print("ema first", ["%.10f" % v for v in torch.tensor(ema_first)[::3].tolist()])
print("swa temps", ["%.10f" % v for v in torch.tensor(swa_temps).tolist()], int(swa.n_averaged))

update_bn(loader, swa, device=device)
running = []
for x, _ in loader:
    out = swa(x)
    running.append(out.softmax(1)[:, 1].mean().item())
print("swa bn mean %.10f" % swa.module.bn.running_mean.sum().item(), "momentum", swa.module.bn.momentum)
print("swa probs", ["%.8f" % v for v in running])
with torch.no_grad():
    print("ema vs model %.10f" % (ema.module.fc2.weight - model.fc2.weight).abs().sum().item())

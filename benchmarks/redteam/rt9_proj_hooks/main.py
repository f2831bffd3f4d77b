# corpus: runnable
# A project: an encoder (model.py) whose pre-hook standardises its input in place, and a probe
# module (probes.py) that hooks the linear layers and keeps their outputs for a penalty that
# main back-propagates after an evaluation pass.
import torch
import torch.nn as nn

import probes
from model import Encoder

torch.manual_seed(0)
torch.set_num_threads(1)
enc = Encoder()
outs = []
for step in range(3):
    template = torch.arange(8.0).reshape(2, 4)
    outs.append(round(enc(template).sum().item(), 5))
print("templates", outs)

net = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 1))
probes.install(net)
net.eval()
preds = []
for x in torch.randn(3, 2, 4):
    preds.append(net(x).squeeze(1))
penalty = sum(a.pow(2).mean() for a in probes.ACTIVATIONS)
penalty.backward()
print("preds", [p.tolist() for p in preds])
print("penalty grad", round(net[0].weight.grad.abs().sum().item(), 5))

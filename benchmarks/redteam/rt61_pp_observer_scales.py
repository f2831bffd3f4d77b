# corpus: runnable
# Red team 61 (blind): post-training calibration then learned-step-size (LSQ-style) fine-tuning. Observers keep
# running min/max of each layer's input as Python floats (an EMA on the host); the asymmetric uint8 scale and zero
# point are computed from them in Python and put back into tensors; the learned step size of each weight is
# initialised from the weights' mean magnitude read back to the host. Each epoch the step sizes are clamped from
# below with a floor taken from the current scale, also round-tripped through the host.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6105)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, H, C = 400, 10, 24, 3
W = torch.randn(D, C)
x_all = torch.randn(N, D) * 2.0 + 0.7
y_all = (x_all @ W).argmax(1)
x_all, y_all = x_all.to(device), y_all.to(device)

model = nn.Sequential(nn.Linear(D, H), nn.ReLU(), nn.Linear(H, C)).to(device)
opt0 = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(80):
    idx = torch.randint(0, N, (50,))
    loss = F.cross_entropy(model(x_all[idx]), y_all[idx])
    opt0.zero_grad()
    loss.backward()
    opt0.step()

layers = [model[0], model[2]]
obs = [{'min': 0.0, 'max': 0.0, 'n': 0} for _ in layers]


def observe(i, t):
    o = obs[i]
    lo, hi = t.min().item(), t.max().item()
    if o['n'] == 0:
        o['min'], o['max'] = lo, hi
    else:
        o['min'] = 0.9 * o['min'] + 0.1 * lo
        o['max'] = 0.9 * o['max'] + 0.1 * hi
    o['n'] += 1


model.eval()
with torch.no_grad():
    for i in range(0, N, 40):
        h = x_all[i:i + 40]
        observe(0, h)
        observe(1, model[1](model[0](h)))

act_scale, act_zp = [], []
for o in obs:
    s = torch.tensor((o['max'] - o['min']) / 255.0)
    zp = torch.tensor(round(-o['min'] / s.item()))
    act_scale.append(s.to(device))
    act_zp.append(zp.to(device))

steps = nn.ParameterList()
for layer in layers:
    init = torch.tensor(2 * layer.weight.detach().abs().mean().item() / math.sqrt(127))
    steps.append(nn.Parameter(init.to(device)))


def fq_act(t, i):
    q = torch.clamp(torch.round(t / act_scale[i]) + act_zp[i], 0, 255)
    deq = (q - act_zp[i]) * act_scale[i]
    return t + (deq - t).detach()


def fq_weight(w, s):
    g = 1.0 / math.sqrt(w.numel() * 127)
    s_grad = s * g + (s - s * g).detach()
    q = torch.clamp(w / s_grad, -128, 127)
    q = q + (torch.round(q) - q).detach()
    return q * s_grad


model.train()
opt = torch.optim.SGD(list(model.parameters()) + list(steps), lr=0.01)
floors = []
for epoch in range(5):
    for i in range(0, N, 50):
        xb, yb = x_all[i:i + 50], y_all[i:i + 50]
        h = F.linear(fq_act(xb, 0), fq_weight(model[0].weight, steps[0]), model[0].bias)
        h = F.linear(fq_act(F.relu(h), 1), fq_weight(model[2].weight, steps[1]), model[2].bias)
        loss = F.cross_entropy(h, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    for j, s in enumerate(steps):
        floor = torch.tensor(act_scale[j].item() * 0.05 + 1e-6)
        floors.append(floor)
        with torch.no_grad():
            s.clamp_(min=floor.to(device))

print('scales', [round(s.item(), 8) for s in act_scale], 'zps', [int(z.item()) for z in act_zp])
print('steps', [round(s.item(), 8) for s in steps], 'floors', round(torch.stack(floors).sum().item(), 8))
print('checksum', round(sum(p.double().sum().item() for p in model.parameters()), 6))

# corpus: runnable
# A loop over optimizer.param_groups whose call reads the groups the loop itself changes.
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1))
opt = torch.optim.SGD([{"params": net[0].parameters()}, {"params": net[1].parameters(), "lr": 0.2}], lr=0.1)


def current_lr(optimizer):
    return sum(g["lr"] for g in optimizer.param_groups)


def decay(base):
    return base * math.cos(0.3)


lrs = []
for step in range(3):
    x = torch.randn(4, 3)
    loss = net(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    for group in opt.param_groups:
        group["lr"] = current_lr(opt) / 2
    for group in opt.param_groups:
        group["lr"] = decay(group["lr"])
    names = []
    for group in opt.param_groups:
        names.append(len(list(opt.param_groups)))
        opt.param_groups.append({**opt.defaults, "params": [], "lr": 0.0}) if len(opt.param_groups) < 3 else None
    lrs.append([round(g["lr"], 5) for g in opt.param_groups])
    lrs.append(names)
print(lrs)

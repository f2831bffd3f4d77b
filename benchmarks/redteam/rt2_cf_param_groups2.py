# corpus: runnable
# Calls inside loops over optimizer.param_groups that read what the step loop changes through the
# optimizer (a group added mid-training, a group's own entries, state the step fills).
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1))
opt = torch.optim.Adam(net[0].parameters(), lr=0.01)
warm = [0.5, 1.0]
log = []
for step in range(4):
    if step == 2:
        opt.add_param_group({"params": net[1].parameters(), "lr": 0.02})
    for group in opt.param_groups:
        group["lr"] = float(np.sqrt(len(opt.param_groups))) * 0.01
    for group in opt.param_groups:
        group["weight_decay"] = float(np.mean(warm))
    for group in opt.param_groups:
        group["eps"] = float(np.float32(len(opt.state)) + 1e-8)
    x = torch.randn(4, 3)
    loss = net(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    warm.append(float(step))
    log.append([(round(g["lr"], 5), round(g["weight_decay"], 3), g["eps"]) for g in opt.param_groups])
print(log)

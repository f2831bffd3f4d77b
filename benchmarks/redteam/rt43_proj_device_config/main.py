# corpus: runnable
# Red team 43 (blind): `device` is a string here, a torch.device in data.py; the dtype arrives through a
# __getattr__ config; data.reshuffle() permutes the module's column lists in place, taking no argument.
import torch
import torch.nn as nn

import data
from config import cfg
from data import columns, reshuffle

torch.manual_seed(0)
torch.set_num_threads(1)
device = cfg.device

model = nn.Linear(3, 1).to(device, cfg.dtype)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
n = len(columns["x"])
for epoch in range(cfg.epochs):
    reshuffle()
    total = 0.0
    for s in range(0, n, cfg.batch):
        xb = torch.tensor(columns["x"][s:s + cfg.batch]).to(device, cfg.dtype)
        yb = torch.tensor(columns["y"][s:s + cfg.batch]).to(device)
        noise = torch.rand(cfg.batch, 1).to(device, cfg.dtype)
        scale = data.host_scale(cfg.batch).to(xb)
        w = xb.new_tensor(columns["y"][s:s + cfg.batch])
        pred = model(xb + 0.01 * noise).squeeze(1) * scale.to(device)
        loss = (w * (pred - yb.to(pred)) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, "total %.12f" % total, xb.dtype, noise.dtype, scale.dtype, w.dtype, columns["y"][:4])
print("weight", [round(v, 10) for v in model.weight.detach().cpu().flatten().tolist()])

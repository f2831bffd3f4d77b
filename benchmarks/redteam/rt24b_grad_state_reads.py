# corpus: runnable
# Red team 24: loop-invariant-looking reads of state that autograd and the optimizer change in
# place: a parameter's `.grad` (accumulated by backward when not zeroed), a leaf constant made with
# `requires_grad=True` (its `.grad` would accumulate if built once), a checkpoint file re-read
import os
import tempfile

import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
w = torch.ones(3, requires_grad=True)
ckpt = os.path.join(tempfile.mkdtemp(), "w.pt")
torch.save(torch.zeros(3), ckpt)
log = []
for step in range(3):
    probe = torch.ones(3, requires_grad=True)
    x = torch.randn(5, 3)
    loss = (x @ (w * probe)).pow(2).mean()
    loss.backward()
    gabs = np.abs(w.grad.numpy())
    prev = torch.load(ckpt)
    log.append([round(float(gabs.sum()), 4), round(float(probe.grad.sum()), 4), round(float(prev.sum()), 4)])
    torch.save(prev + 1.0, ckpt)
    y = model(x.to(device)).pow(2).mean()
    opt.zero_grad()
    y.backward()
    opt.step()
print("grad reads", log)

# corpus: runnable
# Snapshots (NumPy round trips) of tensors that became parameter storage: a flat vector handed to
# `vector_to_parameters`, a tensor adopted with `load_state_dict(assign=True)`, one wrapped by
# `nn.Parameter` and one assigned to `.data`. The optimizer steps the parameters, so it changes
# these tensors; a snapshot that is not a copy would follow the training.
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils import vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
xs, ys = torch.randn(16, 3, device=device), torch.randn(16, 1, device=device)


def step(m, opt):
    opt.zero_grad()
    nn.functional.mse_loss(m(xs), ys).backward()
    opt.step()


lin = nn.Linear(3, 1).to(device)
flat = torch.zeros(4, device=device)
with torch.no_grad():
    vector_to_parameters(flat, lin.parameters())
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
start = torch.tensor(flat.cpu().numpy()).to(device)
for _ in range(3):
    step(lin, opt)
print("vector", round((flat - start).abs().sum().item(), 5))

lin2 = nn.Linear(3, 1, bias=False).to(device)
w0 = torch.full((1, 3), 0.2, device=device)
lin2.load_state_dict({"weight": w0}, assign=True)
opt2 = torch.optim.SGD(lin2.parameters(), lr=0.1)
before = torch.from_numpy(w0.cpu().numpy().copy()).to(device)
for _ in range(3):
    step(lin2, opt2)
print("assign", round((w0 - before).abs().sum().item(), 5))

raw = torch.ones(1, 3, device=device)
lin3 = nn.Linear(3, 1, bias=False).to(device)
lin3.weight = nn.Parameter(raw)
opt3 = torch.optim.SGD(lin3.parameters(), lr=0.1)
ref = torch.tensor(np.array(raw.cpu().numpy()), device=device)
for _ in range(3):
    step(lin3, opt3)
print("parameter", round((raw - ref).abs().sum().item(), 5))

lin4 = nn.Linear(3, 1, bias=False).to(device)
w4 = torch.full((1, 3), -0.3, device=device)
lin4.weight.data = w4
opt4 = torch.optim.SGD(lin4.parameters(), lr=0.1)
snap4 = torch.tensor(w4.cpu().numpy()).to(device)
for _ in range(3):
    step(lin4, opt4)
print("data", round((w4 - snap4).abs().sum().item(), 5))

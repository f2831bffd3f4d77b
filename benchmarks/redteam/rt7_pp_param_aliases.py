# corpus: runnable
# Round trips of a parameter's value (`torch.tensor(p.detach().cpu().numpy())`), the source then
# changed without its name: an optimizer step, `load_state_dict`, `nn.init`, an EMA loop over
# `zip(parameters())`, a `state_dict()` entry scaled in place, a `no_grad` loop over parameters.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
x, y = torch.randn(4, 3), torch.randn(4, 2)

before = torch.tensor(model.weight.detach().cpu().numpy())
opt.zero_grad()
nn.functional.mse_loss(model(x), y).backward()
opt.step()
print("opt.step", (model.weight.detach() - before).abs().sum().round(decimals=5).item())

snap = torch.tensor(model.bias.detach().cpu().numpy())
other = nn.Linear(3, 2)
model.load_state_dict(other.state_dict())
print("load_state_dict", snap.round(decimals=5).tolist())

w0 = torch.tensor(model.weight.detach().numpy())
nn.init.zeros_(model.weight)
print("init", w0.abs().sum().round(decimals=5).item())

ema = copy.deepcopy(model)
prev = torch.tensor(ema.bias.detach().cpu().numpy())
with torch.no_grad():
    for pe, pm in zip(ema.parameters(), model.parameters()):
        pe.mul_(0.5).add_(pm, alpha=0.1)
print("ema", prev.round(decimals=5).tolist(), ema.bias.detach().round(decimals=5).tolist())

kept = torch.tensor(model.bias.detach().numpy())
model.state_dict()["bias"].mul_(3.0)
print("state_dict", kept.round(decimals=5).tolist())

orig = torch.tensor(model.bias.detach().cpu().numpy())
with torch.no_grad():
    for p in model.parameters():
        p.add_(1.0)
print("param loop", orig.round(decimals=5).tolist(), model.bias.detach().round(decimals=5).tolist())

grads = torch.tensor(model.weight.detach().cpu().numpy())
for group in opt.param_groups:
    for p in group["params"]:
        p.data.fill_(0.5)
print("param_groups", grads.round(decimals=5).tolist())

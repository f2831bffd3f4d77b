# corpus: runnable
# Red team 44 probe (after first contact, not blind): a plugin named in a config list is imported with
# importlib.import_module; it installs a global forward pre-hook that rescales a wide layer's input in
# place, so the loop's constant input tensor must be rebuilt every step.
import importlib

import torch
import torch.nn as nn

PLUGINS = ["input_scaler"]
for name in PLUGINS:
    importlib.import_module(name)

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

model = nn.Sequential(nn.Linear(64, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
target = torch.linspace(-1, 1, 256, device=device)[:, None]
for step in range(12):
    probe = torch.full((256, 64), 0.5, device=device)
    loss = (model(probe) - target).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, "%.10f" % loss.item())

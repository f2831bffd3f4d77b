# corpus: runnable
# Red team 24: forward hooks and tensor hooks that rebind a global / nonlocal counter or change a
# NumPy array, run by `model(x)` and `loss.backward()`; the loop builds tensors from what they change
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(24)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
forwards = 0
grad_seen = np.zeros(2)


def count_forward(module, inputs, output):
    global forwards
    forwards += 1


def note_grad(grad):
    grad_seen[0] += 1.0
    return grad


model[0].register_forward_hook(count_forward)
model[2].weight.register_hook(note_grad)


def make_counter():
    calls = 0

    def hook(module, inputs, output):
        nonlocal calls
        calls += 1
        ticks.append(calls)

    return hook


ticks = [0]
model[2].register_forward_hook(make_counter())
log = []
for step in range(3):
    x = torch.randn(5, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    seen = torch.tensor(float(forwards), device=device)
    tick = torch.tensor(ticks[-1], device=device)
    gs = np.log1p(grad_seen)
    log.append(round(float(seen + tick) + float(gs.sum()), 4))
print("hooks", log)

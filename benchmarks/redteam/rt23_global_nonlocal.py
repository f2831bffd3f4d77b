# corpus: runnable
# Red team 23: helpers called in the loop rebind module globals (`global`, `globals()[...]`) and
# enclosing locals (`nonlocal`); the loop builds tensors and arrays from those names
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
device = "cuda" if torch.cuda.is_available() else "cpu"

weights = [1.0, 2.0, 3.0, 4.0]
table = np.ones(4)
limits = (0.5, 2.0)


def refresh(step):
    global weights, table
    weights = [w + step for w in weights]
    table = np.full(4, float(step + 1))


def widen(step):
    globals()["limits"] = (0.5 - step, 2.0 + step)


def train(epochs):
    model = nn.Linear(4, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    bias = [0.0, 0.0, 0.0, 0.0]
    floor = np.zeros(4)

    def shift():
        nonlocal bias, floor
        bias = [b + 1.0 for b in bias]
        floor = floor + 0.5

    out = []
    for step in range(epochs):
        w = torch.tensor(weights, device=device)
        t = np.sqrt(table)
        lo = torch.tensor(limits, device=device)
        b = torch.tensor(bias, device=device)
        f = np.exp(floor)
        x = torch.randn(8, 4, device=device)
        loss = model(x * w + b).clamp(lo[0].item(), lo[1].item()).pow(2).mean() * 1e-3
        opt.zero_grad()
        loss.backward()
        opt.step()
        refresh(step)
        widen(step)
        shift()
        out.append([round(float(v), 5) for v in (w.sum(), t.sum(), lo.sum(), b.sum(), f.sum())])
    return out


print("globals", train(4))

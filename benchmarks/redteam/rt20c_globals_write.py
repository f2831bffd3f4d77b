# corpus: runnable
# Attack on red team 20's fix: a loss weight bound to `0.5` that a helper rebinds through
# `globals()["lam"] = ...` to a NumPy float32 each step.
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(12)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(6, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = [(torch.randn(8, 6), torch.randn(8, 2)) for _ in range(6)]
betas = np.linspace(0.1, 1.0, len(data), dtype=np.float32)

lam = 0.5


def set_lambda(v):
    globals()["lam"] = v


t3 = 0.0
for step, (x, y) in enumerate(data):
    set_lambda(betas[step])
    loss = F.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    t3 += loss.item() * lam
print("globals", t3)



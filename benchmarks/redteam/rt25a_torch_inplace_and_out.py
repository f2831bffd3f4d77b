# corpus: runnable
# Red team 25a (alias45): torch calls that write into their argument and return it under names without a trailing `_`:
# `F.relu(t, inplace=True)`, `F.threshold(..., inplace=True)`, `F.hardtanh(..., inplace=True)`,
# `torch.clamp(t, min=..., out=t)`, `torch.nan_to_num(t, out=buf)`
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(25)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(3, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
base = torch.arange(1.0, 7.0)
buf = torch.empty(6)
r1 = F.relu(base, inplace=True)
r2 = F.threshold(base, 0.5, 0.0, inplace=True)
r3 = F.hardtanh(base, -10.0, 10.0, inplace=True)
r4 = torch.clamp(base, min=-5.0, out=base)
r5 = torch.nan_to_num(base, out=buf)
log = []
for step in range(3):
    x = torch.randn(4, 3, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    base.add_(round(loss.item(), 3))
    buf.mul_(2.0)
    s1 = np.sqrt(r1.numpy())
    s2 = np.sqrt(r2.numpy())
    s3 = np.sqrt(r3.numpy())
    s4 = np.sqrt(r4.numpy())
    s5 = np.sqrt(r5.numpy())
    log.append([round(float(np.asarray(v).sum()), 4) for v in (s1, s2, s3, s4, s5,)])
print("inplace", log)

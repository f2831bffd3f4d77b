# corpus: runnable
# Red team 22: live views (dict views, NumPy views of a tensor, a tensor over a NumPy array) changed in the loop
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(22)
device = "cuda" if torch.cuda.is_available() else "cpu"

counts = {"a": 1.0, "b": 2.0}
vals = counts.values()
keys = counts.keys()
host = torch.zeros(4)
host_np = host.numpy()
arr = np.ones(4, dtype=np.float32)
shared = torch.from_numpy(arr)
alias = torch.as_tensor(arr)
view = np.asarray(host)
model = nn.Linear(4, 1)
w_np = model.weight.detach().numpy()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
out = []
for step in range(4):
    counts["c%d" % step] = float(step)
    v = torch.tensor(list(vals), device=device)
    k = len(list(keys))
    h = torch.tensor(host_np, device=device)
    s = np.log1p(arr)
    vv = torch.tensor(view * 2.0, device=device)
    wt = torch.tensor(w_np, device=device)
    x = torch.randn(8, 4)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    host.add_(1.0)
    shared.mul_(2.0)
    alias.add_(0.5)
    out.append((float(v.sum()), k, float(h.sum()), float(s.sum()), float(vv.sum()), round(float(wt.sum()), 6)))
print("views", out)

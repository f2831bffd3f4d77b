# corpus: runnable
# Red team 26, wave 2 (blind): tensors built in the loop, copied through the host and back
# (`torch.tensor(t.tolist())`) or rebuilt from constants, then changed in place through rows handed
# out by non-torch code: `list(t)` kept in a name, `zip(*...)`, `sorted(list(t), key=...)`,
# `dict(zip(names, t))`, `default_convert` of an array (no copy), a helper returning `t.view(-1)`,
# `min(list(t), key=...)`; the copies must stay copies and the tensors rebuilt each step
import torch
from torch import nn
from torch.utils.data import default_convert

torch.set_num_threads(1)
torch.manual_seed(2613)
device = "cuda" if torch.cuda.is_available() else "cpu"


def flat(t):
    return t.view(-1)


model = nn.Linear(2, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
log = []
for step in range(3):
    a = torch.arange(4.0).reshape(2, 2)
    b = torch.ones(2, 2)
    c = torch.full((2, 2), 3.0)
    d = torch.arange(6.0).reshape(3, 2)
    e = torch.eye(2)
    g = torch.linspace(1.0, 2.0, 4).reshape(2, 2)
    copy_a = torch.tensor(a.tolist())
    copy_b = torch.tensor(b.tolist())
    copy_c = torch.tensor(c.tolist())
    copy_d = torch.tensor(d.tolist())
    copy_e = torch.tensor(e.tolist())
    copy_g = torch.tensor(g.tolist())
    rows_a = list(a)
    rows_a[0].add_(1.0)
    first_b, _ = zip(*[(r, 0) for r in b])
    first_b[0].mul_(5.0)
    sorted(list(c), key=lambda r: float(r.sum()))[0].sub_(1.0)
    dict(zip(["x", "y", "z"], d))["y"].mul_(-2.0)
    flat(e).add_(0.5)
    min(list(g), key=lambda r: float(r.sum())).mul_(10.0)
    arr = (torch.ones(2) * step).numpy()
    conv = default_convert(arr)
    arr_copy = torch.tensor(conv.tolist())
    conv.add_(1.0)
    x = torch.randn(4, 2, device=device)
    loss = model(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.append([t.sum().item() for t in (copy_a, copy_b, copy_c, copy_d, copy_e, copy_g, arr_copy)])
    log.append([t.sum().item() for t in (a, b, c, d, e, g)])
print("rows", log)

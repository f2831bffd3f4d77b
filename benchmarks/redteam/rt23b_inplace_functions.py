# corpus: runnable
# Red team 23 (wave 2): tensors changed in place by torch functions (not methods), unbound methods,
# `inplace=True`, lambda hooks, forward pre-hooks; the loop reads NumPy views of them, some under
# a condition or after an early exit
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
device = "cuda" if torch.cuda.is_available() else "cpu"

t_relu = torch.full((4,), -1.0)
t_clamp = torch.full((4,), 5.0)
t_unbound = torch.ones(4)
t_fin = torch.full((4,), -2.0)
t_lam = torch.zeros(4)
t_pre = torch.zeros(4)
hosts = [t.numpy() for t in (t_relu, t_clamp, t_unbound, t_fin, t_lam, t_pre)]
h_relu, h_clamp, h_unbound, h_fin, h_lam, h_pre = hosts
model = nn.Linear(4, 1).to(device)
model.register_forward_hook(lambda m, i, o: (t_lam.add_(1.0), None)[1])


def pre(m, inputs):
    t_pre.add_(2.0)


model.register_forward_pre_hook(pre)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
cov = np.array([[1.0, 2.0], [2.0, 4.0]])
log = []
warm = True
for step in range(4):
    a = np.abs(h_relu)
    b = np.abs(h_clamp)
    c = np.abs(h_unbound)
    d = np.abs(h_fin)
    e = np.abs(h_lam)
    f = np.abs(h_pre)
    match step:
        case 99:
            g = np.linalg.inv(cov)
        case _:
            g = np.eye(2)
    while not warm:
        g = np.linalg.pinv(np.linalg.inv(cov))
        break
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean() * 1e-3
    opt.zero_grad()
    loss.backward()
    opt.step()
    torch.relu_(t_relu.sub_(-2.0 * step))
    torch.clamp_(t_clamp, max=float(step))
    torch.Tensor.mul_(t_unbound, 3.0)
    F.relu(t_fin, inplace=True)
    t_fin.sub_(1.0)
    log.append([round(float(v.sum()), 4) for v in (a, b, c, d, e, f, g)])
print("inplace functions", log)

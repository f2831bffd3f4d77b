# corpus: runnable
# Red team 23 (wave 2, attacks the wave-1 fixes): NumPy views of a tensor the loop changes in place,
# made by a helper's default argument, a closure over a global, a method, `getattr`, `next(...)`,
# a starred unpacking, a walrus binding a container, a lambda bound to a name
import numpy as np
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(23)
device = "cuda" if torch.cuda.is_available() else "cpu"

running = torch.zeros(4)


def host_of(t=running):
    return t.numpy()


def host_global():
    return running.numpy()


class Holder:
    def __init__(self, t):
        self.t = t

    def view(self):
        return self.t.numpy()


to_np = lambda: running.numpy()  # noqa: E731
h_default = host_of()
h_closure = host_global()
h_method = Holder(running).view()
h_getattr = getattr(running, "numpy")()
h_next = next(iter([running.numpy()]))
h_star, *rest = [running.numpy(), 1]
(bufs := [running.numpy()])
h_walrus_box = bufs[0]
h_lambda = to_np()
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
log = []
for step in range(4):
    a = np.sqrt(h_default)
    b = np.sqrt(h_closure)
    c = np.sqrt(h_method)
    d = np.sqrt(h_getattr)
    e = np.sqrt(h_next)
    f = np.sqrt(h_star)
    g = np.sqrt(h_walrus_box)
    k = np.sqrt(h_lambda)
    x = torch.randn(8, 4, device=device)
    loss = model(x).pow(2).mean() * 1e-3
    opt.zero_grad()
    loss.backward()
    opt.step()
    running.add_(float(step + 1))
    log.append([round(float(v.sum()), 5) for v in (a, b, c, d, e, f, g, k)])
print("helpers", log, len(rest))

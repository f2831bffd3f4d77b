# corpus: runnable
# Constants built per iteration and changed without a visible in-place call on their name:
# `out=` keywords, a view returned by a helper, an element of a tuple or dict, the unbound
# `torch.Tensor.add_`, `getattr(t, "mul_")`, `exec` of a string, `.data` and `.T` in-place,
# a NumPy view written through `np.asarray`, a user class whose `__iadd__` changes its operand.
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cpu")
xs = torch.randn(4, 3)

res = []
for step in range(3):
    acc = torch.zeros(3, device=device)
    torch.add(acc, xs[step], out=acc)
    res.append(acc.sum().item())
print("out=", [round(v, 5) for v in res])


def first_row(t):
    return t[0]


res = []
for step in range(3):
    grid = torch.zeros(2, 3, device=device)
    first_row(grid).add_(xs[step])
    res.append(grid.sum().item())
print("helper view", [round(v, 5) for v in res])

res = []
for step in range(3):
    m = torch.ones(3, device=device)
    pair = (m, step)
    pair[0].mul_(2.0)
    res.append(m.sum().item())
print("tuple item", res)

res = []
for step in range(3):
    c = torch.zeros(3, device=device)
    torch.Tensor.add_(c, 1.0)
    getattr(c, "mul_")(3.0)
    res.append(c.sum().item())
print("unbound/getattr", res)

res = []
for step in range(3):
    e = torch.zeros(3, device=device)
    exec("e.add_(1.0)")
    res.append(e.sum().item())
print("exec", res)

res = []
for step in range(3):
    d = torch.zeros(2, 2, device=device)
    d.data.add_(1.0)
    d.T[0].add_(1.0)
    res.append(d.sum().item())
print("data/T", res)

res = []
for step in range(3):
    a = torch.zeros(3)
    np.asarray(a)[1] = 4.0
    res.append(a.sum().item())
print("asarray", res)


class Counter:
    def __init__(self):
        self.n = 0

    def __iadd__(self, t):
        t.add_(1.0)
        self.n += 1
        return self


cnt = Counter()
res = []
for step in range(3):
    h = torch.zeros(3, device=device)
    cnt += h
    res.append(h.sum().item())
print("__iadd__", res, cnt.n)

res = []
for step in range(3):
    f = torch.zeros(3, device=device)
    store = {"f": f}
    store["f"][step] = 1.0
    res.append(f.tolist())
print("dict item", res)

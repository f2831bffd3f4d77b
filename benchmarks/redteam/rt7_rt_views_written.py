# corpus: runnable
# Second wave: constants built per iteration, written through views made in the same expression
# (`np.asarray(t)[i] += v`, `torch.as_tensor(t)[0] -= 1`, `t.view(-1)[0] = ...` inline), through
# a user class with `__isub__`/`__radd__`, and kept by a `def` default in the loop.
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cpu")

res = []
for step in range(3):
    a = torch.zeros(3)
    np.asarray(a)[1] += 4.0
    torch.as_tensor(a)[0] -= 1.0
    res.append(a.tolist())
print("views", res)


class Sink:
    def __radd__(self, t):
        t.mul_(2.0)
        return self

    def __isub__(self, t):
        t.add_(1.0)
        return self


sink = Sink()
res = []
for step in range(3):
    b = torch.ones(2, device=device)
    b + sink
    sink -= b
    res.append(b.tolist())
print("operators", res)

fns = []
for step in range(3):
    w = torch.zeros(2, device=device)

    def get(t=w):
        return t

    fns.append(get)
fns[0]().add_(1.0)
print("def default", [f().tolist() for f in fns])

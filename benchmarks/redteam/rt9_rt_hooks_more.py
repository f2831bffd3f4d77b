# corpus: runnable
# Second wave (attacks the hook fix): modules that change their input without a hook
# registration by name: a program class overriding `__call__` to normalise in place, a hook
# registered through `getattr(layer, "register_forward_pre_hook")`, a forward that standardises
# its input through a helper method.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Normalised(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def __call__(self, x):
        x.sub_(x.mean())
        return super().__call__(x)

    def forward(self, x):
        return self.fc(x)


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def _prep(self, t):
        t.mul_(0.5)
        return t

    def forward(self, x):
        return self.fc(self._prep(x))


layer = nn.Linear(3, 2)
getattr(layer, "register_forward_pre_hook")(lambda m, inp: inp[0].add_(1.0))
norm, scaled = Normalised(), Scaled()
res = []
for step in range(3):
    a = torch.tensor([[1.0, 2.0, 4.0]])
    ya = norm(a)
    b = torch.tensor([[2.0, -2.0, 1.0]])
    yb = scaled(b)
    res.append((round(ya.sum().item(), 5), a.tolist(), round(yb.sum().item(), 5), b.tolist()))
print(res)

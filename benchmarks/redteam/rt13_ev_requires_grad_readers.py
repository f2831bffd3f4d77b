# corpus: runnable
# Evaluation loops whose outputs are read for their autograd state by code out of the loop's sight:
# a forward hook printing `output.requires_grad`, a callback in a dict reading `grad_fn`, a property
# that reports `torch.is_grad_enabled()`, a `functools.partial` over `torch.autograd.grad`.
import functools

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(3, 2)
model.eval()
xs = torch.randn(3, 4, 3)
seen = []
model.register_forward_hook(lambda m, i, o: seen.append(o.requires_grad))
for x in xs:
    out = model(x)
print("hook saw", seen)

report = {"fn": lambda t: type(t.grad_fn).__name__}
names = []
for x in xs:
    out = model(x)
    names.append(report["fn"](out))
print("grad_fn", names)


class Probe:
    @property
    def enabled(self):
        return torch.is_grad_enabled()


probe = Probe()
flags = []
for x in xs:
    out = model(x)
    flags.append(probe.enabled)
print("enabled", flags)

g = functools.partial(torch.autograd.grad, retain_graph=True)
gs = []
for x in xs:
    xx = x.clone().requires_grad_()
    out = model(xx).sum()
    gs.append(round(g(out, xx)[0].sum().item(), 5))
print("partial grad", gs)

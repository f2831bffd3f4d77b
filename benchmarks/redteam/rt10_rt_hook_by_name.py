# corpus: runnable
# Input-standardising pre-hooks registered out of name (`getattr(net, name)`, a bound registrar,
# the global pre-hook imported under another name, a hook dict written directly). Each changes
# the module's input in place; a constant input built once would be standardised again and again.
import torch
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_pre_hook as before_every_forward

torch.manual_seed(0)
torch.set_num_threads(1)


def standardise(module, args):
    args[0].sub_(args[0].mean()).mul_(2.0)


a = nn.Linear(3, 1)
getattr(a, "register_forward_" + "pre_hook")(standardise)
outs = []
for step in range(3):
    probe = torch.tensor([[1.0, 2.0, 4.0]])
    outs.append(round(a(probe).item(), 5))
print("getattr", outs)

b = nn.Linear(3, 1)
registrar = b.register_forward_pre_hook
registrar(standardise)
outs = []
for step in range(3):
    probe = torch.ones(1, 3) * 3
    outs.append(round(b(probe).item(), 5))
print("bound", outs)

c = nn.Linear(3, 1)
h = before_every_forward(lambda m, args: args[0].mul_(0.5) if isinstance(m, nn.Linear) else None)
outs = []
for step in range(3):
    probe = torch.full((1, 3), 2.0)
    outs.append(round(c(probe).item(), 5))
h.remove()
print("global", outs)

d = nn.Linear(3, 1)
d._forward_pre_hooks[7] = standardise
outs = []
for step in range(3):
    probe = torch.tensor([[0.5, 1.5, 2.5]])
    outs.append(round(d(probe).item(), 5))
print("dict", outs)

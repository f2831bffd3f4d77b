# corpus: runnable
# Feature-matching regularisers whose hooks are registered out of name: `getattr(layer,
# "register_forward_hook")`, a bound registrar kept in a variable, the global
# `register_module_forward_hook` imported under another name, and `get_submodule`. The hooks keep
# the activations of an evaluation pass; the training step back-propagates a penalty on them.
import torch
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook as on_every_forward

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
xs = [torch.randn(5, 4) for _ in range(3)]
kept = []
getattr(model[0], "register_" + "forward_hook")(lambda m, i, o: kept.append(o))
hook_on = model.get_submodule("2").register_forward_hook
hook_on(lambda m, i, o: kept.append(o))


def probe():
    model.eval()
    for x in xs:
        model(x)
    model.train()


for epoch in range(2):
    kept.clear()
    probe()
    penalty = sum(a.pow(2).mean() for a in kept)
    opt.zero_grad()
    penalty.backward()
    opt.step()
    print("epoch", epoch, round(penalty.item(), 5))

seen = []
handle = on_every_forward(lambda m, i, o: seen.append(o) if isinstance(m, nn.Tanh) else None)


def probe_all():
    for x in xs:
        model(x)


seen.clear()
probe_all()
handle.remove()
reg = sum(s.abs().mean() for s in seen)
opt.zero_grad()
reg.backward()
opt.step()
print("global", round(reg.item(), 5), round(model[0].weight.sum().item(), 5))

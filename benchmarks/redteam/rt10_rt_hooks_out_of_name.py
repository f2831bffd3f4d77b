# corpus: runnable
# Hooks registered only out of name (no `register_forward_pre_hook(...)` call is spelled in the
# program): `getattr(layer, "register_forward_" + "pre_hook")`, a bound registrar kept in a
# variable, an entry written into `_forward_pre_hooks`. Each hook changes its module's input in
# place, so a constant input built once would be changed again on every call; a forward hook
# registered by `getattr` keeps activations that a penalty back-propagates after an evaluation.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def standardise(module, args):
    args[0].sub_(args[0].mean()).mul_(2.0)


a, b, c = nn.Linear(3, 1), nn.Linear(3, 1), nn.Linear(3, 1)
getattr(a, "register_forward_" + "pre_hook")(standardise)
registrar = b.register_forward_pre_hook
registrar(standardise)
c._forward_pre_hooks[3] = standardise
outs = []
for step in range(3):
    pa = torch.tensor([[1.0, 2.0, 4.0]])
    pb = torch.tensor([[3.0, 0.0, 1.0]])
    pc = torch.tensor([[0.5, 1.5, 2.5]])
    outs.append((round(a(pa).item(), 5), round(b(pb).item(), 5), round(c(pc).item(), 5)))
print(outs)

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
kept = []
getattr(model[1], "register_" + "forward_hook")(lambda m, i, o: kept.append(o))
xs = [torch.randn(4, 3) for _ in range(3)]
for epoch in range(2):
    kept.clear()
    model.eval()
    for x in xs:
        model(x)
    model.train()
    penalty = sum(k.pow(2).mean() for k in kept)
    opt.zero_grad()
    penalty.backward()
    opt.step()
    print(epoch, round(penalty.item(), 5))

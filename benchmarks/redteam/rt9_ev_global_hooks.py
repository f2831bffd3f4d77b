# corpus: runnable
# Evaluation loops over models seen by hooks registered away from the model: a global module
# forward hook (`register_module_forward_hook`) collecting activations for a later regulariser,
# hooks added through `model.apply`, and a hook on a submodule registered by a helper.
import torch
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
data = [torch.randn(3, 4) for _ in range(3)]

acts = []


def collect(module, inp, out):
    if isinstance(module, nn.Linear):
        acts.append(out)


handle = register_module_forward_hook(collect)
model.eval()
preds = []
for x in data:
    preds.append(model(x).argmax(1))
handle.remove()
reg = sum(a.pow(2).mean() for a in acts)
reg.backward()
print("global hook", [p.tolist() for p in preds], round(reg.item(), 5), model[0].weight.grad.abs().sum().item())
model.zero_grad()

feats = []


def attach(m):
    if isinstance(m, nn.ReLU):
        m.register_forward_hook(lambda mod, i, o: feats.append(o))


model.apply(attach)
model.eval()
scores = []
for x in data:
    scores.append(model(x).max().item())
torch.stack([f.mean() for f in feats]).sum().backward()
print("applied hook", [round(s, 5) for s in scores], model[0].bias.grad.abs().sum().item())

# corpus: runnable
# Loops that call a model and never back-propagate, inside functions that autograd transforms
# differentiate: `torch.func.grad`, `torch.func.vmap(grad(...))` per-sample gradients,
# `torch.autograd.functional.jacobian`/`hvp`, `torch.func.jacrev`, a function handed to
# `torch.autograd.grad` through a dict of callables.
import torch
import torch.nn as nn
from torch.func import functional_call, grad, jacrev, vmap

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
xs = [torch.randn(2, 3) for _ in range(3)]


def predict_all(p):
    preds = []
    for x in xs:
        preds.append(functional_call(model, p, (x,)))
    return torch.cat(preds).sum()


g = grad(predict_all)(params)
print("grad", g["2.bias"].round(decimals=5).tolist())


def rollout(p, x):
    h = x
    for _ in range(3):
        h = functional_call(model, p, (h.repeat(3)[:3],))
    return h.sum()


per_sample = vmap(grad(rollout), in_dims=(None, 0))(params, torch.randn(4, 3))
print("vmap grad", per_sample["2.bias"].round(decimals=5).tolist())


def response(inp):
    outs = []
    for k in range(2):
        outs.append(model(inp * (k + 1)))
    return torch.stack(outs).sum()


jac = torch.autograd.functional.jacobian(response, torch.randn(1, 3))
print("jacobian", jac.round(decimals=4).tolist())
_, hv = torch.autograd.functional.hvp(response, torch.randn(1, 3), torch.ones(1, 3))
print("hvp", hv.round(decimals=4).tolist())


def field(inp):
    total = 0
    for scale in (0.5, 1.0):
        total = total + model(inp * scale).sum()
    return total


print("jacrev", jacrev(field)(torch.randn(3)).round(decimals=4).tolist())

metrics = {"smooth": response}
probe = torch.randn(1, 3, requires_grad=True)
(dprobe,) = torch.autograd.grad(metrics["smooth"](probe), probe)
print("autograd.grad", dprobe.round(decimals=4).tolist())

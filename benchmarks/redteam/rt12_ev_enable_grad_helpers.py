# corpus: runnable
# Evaluation loops whose helpers re-enable grad for their own reasons: input saliency from a
# forward run outside the helper's `enable_grad` block, a decorated `@torch.enable_grad()` score
# that reads `.grad` after a backward of an output made by the caller, a `set_grad_enabled(True)`
# context around an attribution step.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
model.eval()
val = [torch.randn(3, 4) for _ in range(3)]


def weight_sensitivity(out):
    with torch.enable_grad():
        g = torch.autograd.grad(out.sum(), model[0].weight, allow_unused=True)[0]
    return 0.0 if g is None else g.abs().sum().item()


sens = []
for x in val:
    out = model(x)
    sens.append(round(weight_sensitivity(out), 4))
print("sensitivity", sens)


@torch.enable_grad()
def norm_of_grad(out):
    model.zero_grad()
    out.pow(2).sum().backward()
    return model[2].weight.grad.norm().item()


norms = []
for x in val:
    out = model(x)
    norms.append(round(norm_of_grad(out), 4))
print("grad norms", norms)


def attribution(out, x):
    with torch.set_grad_enabled(True):
        return (out.requires_grad, out.grad_fn is not None)


flags = []
for x in val:
    out = model(x)
    flags.append(attribution(out, x))
print("flags", flags)

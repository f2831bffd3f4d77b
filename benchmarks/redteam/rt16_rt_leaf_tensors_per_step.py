# corpus: runnable
# Tensors built every step that become leaves of a graph later in the step: `requires_grad_()`
# after the factory, `.requires_grad = True` assigned, `nn.Parameter` wrapping, `retain_grad()`:
# hoisted, one leaf would collect every step's gradient in `.grad`.
import torch
from torch import nn

torch.set_num_threads(1)
grads = []
for step in range(3):
    w = torch.ones(2)
    w.requires_grad_()
    (w * (step + 1)).sum().backward()
    grads.append(w.grad.tolist())
print("requires_grad_()", grads)

grads = []
for step in range(3):
    b = torch.zeros(2)
    b.requires_grad = True
    (b + step).pow(2).sum().backward()
    grads.append(b.grad.tolist())
print("requires_grad =", grads)

grads = []
for step in range(3):
    p = nn.Parameter(torch.full((2,), 0.5))
    (p * 3).sum().backward()
    grads.append(p.grad.tolist())
print("Parameter", grads)

grads = []
x = torch.ones(2, requires_grad=True)
for step in range(3):
    s = torch.tensor([2.0, 3.0])
    h = x * s
    h.retain_grad()
    h.sum().backward()
    grads.append((h.grad.tolist(), x.grad.tolist()))
print("retain_grad", grads)

opt_grads = []
for step in range(2):
    scale = torch.ones(3)
    scale.requires_grad_(True)
    opt = torch.optim.SGD([scale], lr=0.1)
    (scale * 2).sum().backward()
    opt.step()
    opt_grads.append(scale.tolist())
print("optimized leaf", opt_grads)

# corpus: runnable
# Per-iteration tensors that look constant but are not: leaves with `requires_grad=True` whose
# `.grad` accumulates, tensors filled by in-place random init (`normal_`, `bernoulli_`,
# `uniform_` draw from the global generator in loop order), a buffer given to a fresh optimizer,
# and a zero tensor turned into a leaf by `requires_grad_()`.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
xs = torch.randn(4, 3, device=device)

grads = []
for x in xs:
    delta = torch.zeros(3, device=device, requires_grad=True)
    ((x + delta) ** 2).sum().backward()
    grads.append(round(delta.grad.sum().item(), 5))
print("adversarial grads", grads)

grads2 = []
for x in xs:
    offset = torch.zeros(3, device=device).requires_grad_()
    (x * offset).sum().backward()
    grads2.append(round(offset.grad.sum().item(), 5))
print("offset grads", grads2)

draws = []
for x in xs:
    noise = torch.empty(3, device=device).normal_()
    keep = torch.empty(3, device=device).bernoulli_(0.5)
    draws.append(round((x * keep + noise).sum().item(), 5))
print("draws", draws)

fitted = []
for x in xs:
    w = torch.zeros(3, device=device, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.5)
    for _ in range(2):
        opt.zero_grad()
        ((w - x) ** 2).sum().backward()
        opt.step()
    fitted.append(round(w.sum().item(), 5))
print("fitted", fitted)

layer_sums = []
for x in xs:
    proj = nn.Linear(3, 3).to(device)
    scale = torch.ones(3, device=device)
    layer_sums.append(round((proj(x) * scale).sum().item(), 5))
print("fresh layers", layer_sums)

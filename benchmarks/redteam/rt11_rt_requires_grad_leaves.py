# corpus: runnable
# Leaf tensors built per restart that require grad: their `.grad` accumulates across backward
# calls; built once, a restart would start from the previous run's values and gradients. The
# flag is set in the factory, by `requires_grad_()` on a later line, by attribute assignment.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(5, 3)
out = []
for run in range(3):
    w = torch.zeros(3, requires_grad=True)
    for x in xs:
        (w * x + 1).sum().pow(2).backward()
    out.append(round(w.grad.sum().item(), 4))
print("factory flag", out)

out = []
for run in range(3):
    v = torch.ones(3)
    v.requires_grad_()
    for x in xs:
        (v * x).sum().backward()
    out.append(round(v.grad.sum().item(), 4))
print("requires_grad_", out)

out = []
for run in range(3):
    u = torch.full((3,), 0.5)
    u.requires_grad = True
    opt = torch.optim.SGD([u], lr=0.1)
    for x in xs:
        opt.zero_grad()
        (u * x).sum().pow(2).backward()
        opt.step()
    out.append(round(u.sum().item(), 4))
print("attribute flag", out)

out = []
for run in range(3):
    delta = torch.zeros(3).requires_grad_(True)
    for x in xs[:2]:
        loss = (x + delta).pow(2).sum()
        (g,) = torch.autograd.grad(loss, delta)
        delta.data.add_(0.1 * g.sign())
    out.append(round(delta.sum().item(), 4))
print("adversarial delta", out)

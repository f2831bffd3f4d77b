# corpus: runnable
# Red team 26m, wave 1: Python-level torch helpers that write the tensors (lists) they are handed
# without a trailing `_`: the functional optimisers (`torch.optim.sgd.sgd`, `torch.optim.adam.adam`),
# `torch.autograd.backward`, and `_amp_foreach_non_finite_check_and_unscale_`'s `found_inf`.
import torch
from torch.optim.adam import adam
from torch.optim.sgd import sgd

torch.set_num_threads(1)
torch.manual_seed(2604)
log = []

w = torch.ones(3)
momentum = [torch.zeros(3)]
for step in range(3):
    g = torch.full((3,), 0.5 + step)
    sgd([w], [g], momentum, momentum=0.9, lr=0.1, dampening=0.0, weight_decay=0.0, nesterov=False, maximize=False)
    snap = torch.tensor(w.numpy())
    log.append(round(float(snap.sum()), 4))

p = torch.ones(2)
m1, m2, st = torch.zeros(2), torch.zeros(2), torch.zeros(())
for step in range(3):
    g = torch.full((2,), 1.0 + step)
    adam([p], [g], [m1], [m2], [], [st], amsgrad=False, beta1=0.9, beta2=0.99, lr=0.1, weight_decay=0.0, eps=1e-8,
         maximize=False)
    mom = torch.tensor(m1.numpy())
    log.append(round(float(mom.sum()), 4))

leaf = torch.ones(3, requires_grad=True)
for step in range(3):
    loss = (leaf * (step + 1)).sum()
    torch.autograd.backward(loss)
    grad = torch.tensor(leaf.grad.numpy())
    log.append(float(grad.sum()))

found = torch.zeros(1)
grads = [torch.tensor([1.0, 2.0])]
for step in range(3):
    if step == 1:
        grads[0][0] = float("inf")
    torch._amp_foreach_non_finite_check_and_unscale_(grads, found, torch.ones(()))
    flag = torch.tensor(found.numpy())
    log.append(float(flag.sum()))
print("functional optimisers", log)

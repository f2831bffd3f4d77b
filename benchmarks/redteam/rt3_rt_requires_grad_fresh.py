# corpus: runnable
# A fresh leaf made per step with requires_grad (its .grad must start empty each step), a fresh
# buffer kept in a list and changed later, a tensor read on the previous iteration before it is
# rebuilt, a constant changed through `out=` and through `.data`.
import torch

torch.manual_seed(0)
w = torch.randn(3)
grads = []
for step in range(3):
    delta = torch.zeros(3, requires_grad=True)
    loss = ((w + delta) ** 2).sum() * (step + 1)
    loss.backward()
    grads.append(delta.grad.clone())
print([g.tolist() for g in grads])

kept = []
for step in range(3):
    buf = torch.zeros(2)
    kept.append(buf)
kept[0].add_(5)
print([b.tolist() for b in kept])

prev = None
seen = []
for step in range(3):
    if prev is not None:
        seen.append(prev.sum().item())
        prev.mul_(2)
    prev = torch.ones(2)
print(seen)

res = []
for step in range(3):
    scale = torch.tensor([1.0, 2.0])
    torch.mul(scale, 3, out=scale)
    res.append(scale.tolist())
print(res)

res = []
for step in range(3):
    bias = torch.tensor([0.5, 0.5])
    bias.data += step
    res.append(bias.tolist())
print(res)

res = []
for step in range(3):
    mask = torch.ones(4)
    torch.nn.init.constant_(mask, float(step))
    res.append(mask.sum().item())
print(res)

res = []
for step in range(3):
    h = torch.full((3,), 2.0)
    torch.nn.functional.relu(h - 3, inplace=True)
    v = h.view(-1)
    v[step] = -1.0
    res.append(h.tolist())
print(res)

res = []
for step in range(3):
    arr = torch.arange(4.0)
    arr.numpy()[step] = 10.0
    res.append(arr.tolist())
print(res)

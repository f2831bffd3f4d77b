# corpus: runnable
# Hand-written ReLU / leaky ReLU forms on inputs where the fused op differs: NaN, +-inf, -0.0,
# integer tensors, a maximum that broadcasts to a bigger shape, a masked assignment that changes
# the tensor in place (and its aliases), a where with a tensor other than zero.
import torch
import torch.nn.functional as F

torch.set_num_threads(1)
x = torch.tensor([float("nan"), float("-inf"), float("inf"), -0.0, -2.0, 3.0])

a = x * (x > 0)
print("A mul mask", a.tolist())
b = torch.where(x > 0, x, torch.zeros_like(x))
print("B where", b.tolist())
c = torch.maximum(x, torch.zeros(3, 1))
print("C broadcast", tuple(c.shape))
d = x.clamp(min=0)
print("D clamp", d.tolist())
i = torch.tensor([-3, 0, 4])
e = torch.max(i, torch.tensor(0.0))
print("E int", e.dtype, e.tolist())
y = x.clone()
alias = y[2:]
y[y < 0] = 0
print("F masked", y.tolist(), alias.tolist())
g = torch.where(x > 0, x, 0.1 * x)
print("G leaky", g.tolist())
h = (x > 0).float() * x
print("H float mask", h.tolist())
k = x * (x >= 0)
print("K ge", k.tolist())
u = torch.tensor([-1.0, 2.0]).requires_grad_()
lr = torch.where(u > 0, u, u * 0.2)
lr.sum().backward()
print("L grad", u.grad.tolist())

# corpus: runnable
# Leaky-ReLU look-alikes whose slope is not a Python number: a learnable per-channel slope
# (PReLU written by hand), a 0-d tensor, a NumPy scalar, a slope read from a list, a slope
# changed between calls; and a negative-part expression that is not `slope * x`.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(2, 3, 4)


class HandPReLU(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.alpha = nn.Parameter(torch.full((channels, 1), 0.25))

    def forward(self, h):
        return torch.where(h > 0, h, self.alpha * h)


print("prelu", round(HandPReLU(3)(x).sum().item(), 5))

slope_t = torch.tensor(0.2)
y = torch.where(x > 0, x, x * slope_t)
print("0-d slope", round(y.sum().item(), 5))

slope_np = np.float32(0.1)
z = torch.where(x > 0, x, slope_np * x)
print("numpy slope", round(z.sum().item(), 5), z.dtype)

slopes = [0.01, 0.2]
w = torch.where(x > 0, x, slopes[1] * x)
print("list slope", round(w.sum().item(), 5))

neg = 0.3
v = torch.where(x > 0, x, neg * x - 0.0)
print("minus zero", round(v.sum().item(), 5))

xi = torch.arange(-3, 3)
q = torch.where(xi > 0, xi, 2 * xi)
print("int", q.tolist(), q.dtype)

xd = torch.randn(5, dtype=torch.float64, requires_grad=True)
r = torch.where(xd > 0, xd, 0.1 * xd)
r.sum().backward()
print("grad", [round(v, 5) for v in xd.grad.tolist()])

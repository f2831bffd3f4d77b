# corpus: runnable
# Activations written by hand in public model code that look like GELU/SiLU/Mish but are not
# the fused op bit for bit (quick GELU, a truncated constant, a learnable beta, half precision).
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-4, 4, 9)


def quick_gelu(h):
    return h * torch.sigmoid(1.702 * h)  # paef: refuse operator-fusion


def gelu_erf(h):
    return 0.5 * h * (1.0 + torch.erf(h / math.sqrt(2.0)))  # paef: expect-fix operator-fusion


def gelu_tanh(h):
    return 0.5 * h * (1 + torch.tanh(math.sqrt(2 / math.pi) * (h + 0.044715 * torch.pow(h, 3))))  # paef: expect-fix operator-fusion


def gelu_tanh_rough(h):
    return 0.5 * h * (1 + torch.tanh(0.79788 * (h + 0.0447 * h ** 3)))  # paef: refuse operator-fusion


def gelu_np(a):
    return 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * np.power(a, 3))))  # paef: refuse operator-fusion


class Swish(nn.Module):
    def __init__(self):
        super().__init__()
        self.beta = nn.Parameter(torch.tensor(1.5))

    def forward(self, h):
        return h * torch.sigmoid(self.beta * h)  # paef: refuse operator-fusion


def mish(h):
    return h * torch.tanh(F.softplus(h, beta=2.0))  # paef: refuse operator-fusion


print(quick_gelu(x))
print(gelu_erf(x))
print(gelu_tanh(x))
print(gelu_tanh_rough(x))
print(np.round(gelu_np(np.linspace(-3, 3, 7)), 4))
sw = Swish()
out = sw(x)
out.sum().backward()
print(out, sw.beta.grad)
print(mish(x))
print(gelu_erf(torch.arange(-2, 3)))

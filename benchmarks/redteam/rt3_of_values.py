# corpus: runnable
# Hand-written activations whose fused form differs: NaN/-inf inputs, signed zeros, the gradient at
# exactly zero, a learnable slope (PReLU written by hand), an operand with side effects, NumPy arrays.
import numpy as np
import torch

torch.manual_seed(0)
x = torch.tensor([float("nan"), float("-inf"), -2.0, 0.0, 1.5])
print(torch.where(x > 0, x, 0))
print(x * (x > 0))
print(torch.where(x > 0, x, 0.1 * x))

z = torch.tensor([0.0, 0.0, 2.0, -1.0], requires_grad=True)
y = torch.maximum(z, torch.zeros_like(z))
y.sum().backward()
print(z.grad)

z2 = torch.tensor([0.0, 0.0, 2.0, -1.0], requires_grad=True)
y2 = torch.clamp(z2, min=0)
y2.sum().backward()
print(z2.grad)


class HandPReLU(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.alpha = torch.nn.Parameter(torch.tensor(0.25))

    def forward(self, h):
        return torch.where(h > 0, h, self.alpha * h)


act = HandPReLU()
h = torch.randn(6, requires_grad=True)
act(h).sum().backward()
print(act.alpha.grad)

calls = []


def feat():
    calls.append(1)
    return torch.randn(4)


r = torch.where(feat() > 0, feat(), 0)
print(len(calls), r.shape)
drop = torch.nn.Dropout(0.5)
drop.train()
base = torch.ones(8)
r2 = drop(base) * (drop(base) > 0)
print(r2)

a = np.array([-1.0, 2.0, -3.0])
print(a * (a > 0))
print(np.maximum(a, np.zeros_like(a)))

logits = torch.tensor([100.0, 0.0, -100.0])
sm = torch.exp(logits) / torch.exp(logits).sum()
print(sm)
sig = 1 / (1 + torch.exp(-logits))
print(sig)
xs = torch.linspace(-3, 3, 7)
g = 0.5 * xs * (1 + torch.tanh(0.7978845608 * (xs + 0.044715 * xs ** 3)))
print(g)
s = xs * torch.sigmoid(xs)
print(s)

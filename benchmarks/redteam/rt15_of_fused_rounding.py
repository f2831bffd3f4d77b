# corpus: runnable
# Hand-written activations in half precision, bfloat16 and float64 next to their fused forms'
# edge values: a leaky ReLU with a slope that float16 cannot hold exactly, a sigmoid written as
# `1 / (1 + exp(-x))` at large negative inputs, a softplus-like `log(1 + exp(x))` at large x.
import torch

torch.set_num_threads(1)
h = torch.tensor([-3.0, -0.1, 0.0, 0.5, 60000.0], dtype=torch.float16)
lk = torch.where(h > 0, h, 0.01 * h)
print("leaky f16", lk.tolist())
b = torch.tensor([-3.0, -1e-3, 2.0], dtype=torch.bfloat16)
lb = torch.where(b > 0, b, b * 0.3)
print("leaky bf16", lb.tolist())
x = torch.tensor([-800.0, -20.0, 0.0, 20.0], dtype=torch.float64)
sig = 1 / (1 + torch.exp(-x))
print("sigmoid", [repr(v) for v in sig.tolist()])
y = torch.tensor([-30.0, 0.0, 30.0, 100.0])
sp = torch.log(1 + torch.exp(y))
print("softplus", sp.tolist())
z = torch.tensor([-2.0, 0.0, 3.0], dtype=torch.float16)
relu6 = torch.clamp(torch.clamp(z, min=0), max=6)
print("relu6", relu6.tolist(), relu6.dtype)
g = torch.tensor([-1.0, 0.5, 1.0], dtype=torch.float64)
gelu = 0.5 * g * (1 + torch.erf(g / 2 ** 0.5))
print("gelu", [repr(v) for v in gelu.tolist()])

# corpus: runnable
# Per-step tables written through views made by unbound tensor methods (`torch.Tensor.view`,
# `torch.Tensor.select`, `torch.Tensor.transpose`) and NumPy stride tricks over `t.numpy()`.
# Each table is kept; built once, they would all be one object.
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)
kept = []
for step in range(4):
    a = torch.zeros(2, 3)
    torch.Tensor.view(a, -1)[step] = 1.0
    b = torch.zeros(3, 3)
    torch.Tensor.select(b, 0, 1).copy_(xs[step])
    c = torch.zeros(3, 3)
    torch.Tensor.transpose(c, 0, 1)[2].add_(xs[step])
    d = torch.zeros(4)
    np.lib.stride_tricks.as_strided(d.numpy(), (2,), (8,))[1] = step
    kept.append((a, b, c, d))
for i in range(4):
    print(i, [round(t[i].sum().item(), 4) for t in kept])

# corpus: runnable
# Hand-written ReLUs whose result differs from `torch.relu` in sign of zero or in type: integer
# tensors of every width (uint8 wraps?), bool tensors, `x.clamp(min=0)` on int8, `torch.where(x > 0, x, 0)`
# on int16, `x.masked_fill(x < 0, 0)` on int32; the signs of the zeros printed via `1 / x` on floats.
import torch

torch.set_num_threads(1)
rows = []
for dt in (torch.int8, torch.int16, torch.int32, torch.uint8):
    x = (torch.arange(6) - 3).to(dt)
    a = x * (x > 0)
    b = torch.where(x > 0, x, 0)
    c = x.clamp(min=0)
    d = x.masked_fill(x < 0, 0)
    e = torch.max(x, torch.zeros_like(x))
    rows.append([str(t.dtype) + str(t.tolist()) for t in (a, b, c, d, e)])
for r in rows:
    print(r)

zs = []
for step in range(2):
    z = torch.tensor([-0.0, -1.0, 0.0, 2.0])
    m = z.clamp(min=0)
    n = torch.where(z > 0, z, 0.0)
    zs.append([(1 / m).tolist(), (1 / n).tolist()])
print(zs)

# corpus: runnable
# Per-step buffers written through `out=` arguments and unbound / looked-up in-place methods:
# `torch.add(..., out=buf)`, `torch.cumsum(..., out=)`, `torch.Tensor.add_(buf, x)`,
# `torch.Tensor.copy_(buf[0], x)`, `getattr(buf, "mul_")`, `buf.__iadd__`, `operator.iadd`.
# The buffers are kept per step; one buffer built before the loop would alias all of them.
import operator

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(4, 3)

kept = {k: [] for k in "abcdefgh"}
for step in range(4):
    a = torch.zeros(3)
    torch.add(xs[step], 1.0, out=a)
    kept["a"].append(a)
    b = torch.zeros(3)
    torch.cumsum(xs[step], 0, out=b)
    kept["b"].append(b)
    c = torch.ones(3)
    torch.Tensor.add_(c, xs[step])
    kept["c"].append(c)
    d = torch.zeros(2, 3)
    torch.Tensor.copy_(d[0], xs[step])
    kept["d"].append(d)
    e = torch.ones(3)
    getattr(e, "mul_")(xs[step])
    kept["e"].append(e)
    f = torch.zeros(3)
    f.__iadd__(xs[step])
    kept["f"].append(f)
    g = torch.zeros(3)
    operator.iadd(g, xs[step])
    kept["g"].append(g)
    h = torch.zeros(3)
    torch.clamp(xs[step], min=0.0, out=h)
    kept["h"].append(h)
for k, ts in kept.items():
    print(k, [round(t.sum().item(), 4) for t in ts])

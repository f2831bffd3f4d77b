# corpus: runnable
# Fills edited at fixed indices inside the loop (constant masks) that are then changed by a helper,
# through a view, as an `out=` target, or kept across iterations.
import torch

torch.manual_seed(0)


def bump(t):
    t.add_(1)
    return t


def clip_(t, lo):
    return t.clamp_(min=lo)


out = []
keep = []
for step in range(3):
    m = torch.zeros(4)
    m[1] = 3
    bump(m)
    out.append(m.tolist())
    w = torch.ones(2, 2)
    w[0, 0] = 0
    row = w[1]
    row *= 2
    out.append(w.sum().item())
    z = torch.full((3,), -1.0)
    z[0] = 5
    torch.add(z, 1, out=z)
    out.append(z.tolist())
    k = torch.ones(3)
    k[2] = 0
    clip_(k, 0.5)
    out.append(k.tolist())
    s = torch.zeros(3)
    s[0] = 1
    keep.append(s)
    keep[-1] += step
out.append([t.tolist() for t in keep])
print(out)

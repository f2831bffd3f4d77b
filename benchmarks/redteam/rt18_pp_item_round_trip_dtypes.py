# corpus: runnable
# `torch.tensor(t.item())` round trips where the tensor kept on the device would differ: an
# int32 / uint8 / float64 / bool source, a one-element 1-d source (shape), the result changed
# in place afterwards while the source is still read (an alias on the CPU), a source that
# requires grad.
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
scores = [torch.randn(5) for _ in range(4)]

out = []
for s in scores:
    i32 = s.argmax().int()
    t = torch.tensor(i32.item())
    out.append((t.dtype, (t + 2**31 - 3).item() if t.dtype == torch.int64 else (t + 3).item()))
print("A int32", out)

out = []
for s in scores:
    u8 = (s.abs() * 100).to(torch.uint8).max()
    t = torch.tensor(u8.item())
    out.append(repr((t + 200).item()))
print("B uint8", out)

out = []
for s in scores:
    d = s.double().sum()
    t = torch.tensor(d.item())
    out.append((str(t.dtype), repr(t.item())))
print("C float64", out)

out = []
for s in scores:
    one = s.max(dim=0, keepdim=True)[0]
    t = torch.tensor(one.item())
    out.append(tuple(t.shape))
print("D shape", out)

out = []
for s in scores:
    best = s.max()
    t = torch.tensor(best.item())
    t += 1
    out.append((repr(best.item()), repr(t.item())))
print("E alias", out)

out = []
for s in scores:
    w = s.clone().requires_grad_()
    m = (w * 2).sum()
    t = torch.tensor(m.item())
    out.append((t.requires_grad, t.is_leaf))
print("F grad", out)

out = []
for s in scores:
    flag = (s > 0).all()
    t = torch.tensor(flag.item())
    out.append((str(t.dtype), (t + 1).item()))
print("G bool", out)

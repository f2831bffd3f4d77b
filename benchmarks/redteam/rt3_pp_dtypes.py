# corpus: runnable
# `torch.tensor(t.tolist())` / `torch.tensor(t.item())` where the source is float64, int32, bfloat16,
# uint8, needs requires_grad, or `torch.tensor(t.numpy())` of a tensor changed afterwards.
import torch

torch.manual_seed(0)
for step in range(2):
    d = torch.randn(3, dtype=torch.float64)
    a = torch.tensor(d.tolist())
    b = torch.tensor(d.sum().item())
    print(a.dtype, b.dtype)
    i = torch.randint(0, 5, (3,), dtype=torch.int32)
    c = torch.tensor(i.tolist())
    print(c.dtype, c * 1000000000)
    bf = torch.randn(3).bfloat16()
    e = torch.tensor(bf.tolist())
    print(e.dtype, e)
    u = torch.tensor([250, 3], dtype=torch.uint8)
    f = torch.tensor(u.tolist())
    print(f + 10)
    w = torch.tensor(d.tolist(), requires_grad=True)
    (w * 2).sum().backward()
    print(w.grad, w.is_leaf)
    src = torch.arange(3.0)
    n = torch.tensor(src.numpy())
    src.add_(1)
    print(n)
    lst = torch.tensor(src.tolist(), device="cpu")
    src.mul_(2)
    print(lst)
    bb = torch.rand(3) > 0.5
    g = torch.tensor(bb.tolist())
    print(g.dtype)

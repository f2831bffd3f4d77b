# corpus: runnable
# Round trips through NumPy and lists of tensors whose dtype the trip changes or keeps: complex,
# uint8, int16, float16 through `.numpy()`, `torch.Tensor(...)` and `torch.LongTensor(...)` of
# arrays, `torch.as_tensor(..., dtype=...)`, a round trip of a tensor converted by `.type(...)`.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
z = torch.randn(3, dtype=torch.complex128)
u = torch.tensor([250, 3, 7], dtype=torch.uint8)
s = torch.tensor([30000, -5, 2], dtype=torch.int16)
h = torch.randn(3).half()
f = torch.randn(3)
for step in range(2):
    a = torch.tensor(z.numpy())
    b = torch.tensor(z.tolist())
    c = torch.tensor(u.numpy())
    d = torch.tensor(s.tolist())
    e = torch.tensor(h.numpy())
    g = torch.Tensor(u.numpy())
    k = torch.LongTensor(s.numpy())
    m = torch.as_tensor(f.numpy(), dtype=torch.float64)
    t = f.type(torch.DoubleTensor)
    n = torch.tensor(t.tolist())
    print(a.dtype, b.dtype, c + 10, d * 2, e.dtype, g.dtype, k.dtype, m.dtype, n.dtype)
    print((b * 1e-9).tolist(), (d * 3).tolist(), (n / 3).tolist())

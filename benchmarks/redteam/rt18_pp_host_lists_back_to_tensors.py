# corpus: runnable
# Device tensors taken to host lists / arrays and rebuilt as tensors, where the rebuilt tensor
# differs from the source kept on the device: int32 and int16 sources (rebuilt as int64), a
# float64 source (rebuilt as float32 from a list), a 0-d source (`.tolist()` gives a scalar), a
# NumPy round trip whose array the program changes afterwards, a bool source summed.
import torch

torch.set_num_threads(1)
torch.manual_seed(0)
xs = [torch.randn(4) for _ in range(3)]

out = []
for x in xs:
    i = (x * 1000).int()
    t = torch.tensor(i.cpu().tolist())
    out.append((str(t.dtype), (t * 2**22).tolist()))
print("A int32", out)

out = []
for x in xs:
    d = x.double() / 3
    t = torch.tensor(d.cpu().tolist())
    out.append((str(t.dtype), repr(t.sum().item())))
print("B float64", out)

out = []
for x in xs:
    s = x.sum()
    t = torch.tensor(s.cpu().tolist())
    out.append((tuple(t.shape), repr(t.item())))
print("C 0-d", out)

out = []
for x in xs:
    a = x.cpu().numpy()
    t = torch.tensor(a)
    a[0] = 100.0
    out.append((repr(t[0].item()), repr(x[0].item())))
print("D numpy changed", out)

out = []
for x in xs:
    b = x > 0
    t = torch.tensor(b.cpu().tolist())
    out.append((str(t.dtype), t.sum().item()))
print("E bool", out)

out = []
for x in xs:
    h = x.half()
    t = torch.tensor(h.cpu().tolist())
    out.append((str(t.dtype), repr((t / 3).sum().item())))
print("F half", out)

# corpus: runnable
# Lists of `.item()` values turned into a tensor: the source's dtype differs from what
# `torch.tensor(list)` infers (float64, float16, int32, uint8, bool), or the default dtype changed.
import torch

torch.manual_seed(0)
rows64 = torch.randn(4, 3, dtype=torch.float64)
vals = []
for row in rows64:
    vals.append(row.sum().item())
t = torch.tensor(vals)
print(t.dtype, t)

rows16 = torch.randn(4, 3).half()
vals = []
for row in rows16:
    vals.append(row.max().item())
t = torch.tensor(vals)
print(t.dtype, t)

counts = torch.randint(0, 100, (4, 3), dtype=torch.int32)
vals = []
for row in counts:
    vals.append(row.sum().item())
t = torch.tensor(vals)
print(t.dtype, t * 100000000)

pix = torch.randint(200, 255, (4, 3), dtype=torch.uint8)
vals = []
for row in pix:
    vals.append(row.max().item())
t = torch.tensor(vals)
print(t.dtype, t + 100)

flags = torch.rand(4, 3) > 0.5
vals = []
for row in flags:
    vals.append(row.any().item())
t = torch.tensor(vals)
print(t.dtype, t)

vals = []
for row in counts:
    vals.append(int(row.float().mean()))
t = torch.tensor(vals)
print(t.dtype, t)

vals = []
for row in rows64:
    vals.append(float(row.argmax()))
t = torch.tensor(vals)
print(t.dtype, t)

vals = [0.5]
for row in torch.randn(3, 2):
    vals.append(row.sum().item())
t = torch.tensor(vals)
print(t.dtype, t)

vals = []
for row in torch.randn(3, 2):
    vals.append(round(row.sum().item(), 2))
t = torch.tensor(vals)
print(t)

torch.set_default_dtype(torch.float64)
src = torch.randn(3, 2, dtype=torch.float32)
vals = []
for row in src:
    vals.append(row.sum().item())
t = torch.tensor(vals)
print(t.dtype)
torch.set_default_dtype(torch.float32)

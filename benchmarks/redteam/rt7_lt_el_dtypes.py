# corpus: runnable
# `.item()` values collected and rebuilt as tensors, and element loops, over dtypes that a
# Python round trip changes: float16 and bfloat16 items, complex, uint8 and int32 counts, bool
# flags, float64 losses.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
h = torch.randn(5).half()
b = torch.randn(5).bfloat16()
u = torch.tensor([250, 3, 7, 9, 255], dtype=torch.uint8)
i32 = torch.tensor([2**30, 5, -7, 1, 3], dtype=torch.int32)
flags = torch.rand(5) > 0.5
z = torch.randn(5, dtype=torch.complex64)
d = torch.randn(5, dtype=torch.float64)

vals = []
for k in range(5):
    vals.append(h[k].item())
print("half", torch.tensor(vals).dtype, torch.tensor(vals).tolist())

vals = []
for k in range(5):
    vals.append(b[k].item())
print("bf16", torch.tensor(vals).dtype, (torch.tensor(vals) * 3).tolist())

vals = []
for k in range(5):
    vals.append(u[k].item())
print("uint8", (torch.tensor(vals) + 10).tolist())

vals = []
for k in range(5):
    vals.append(i32[k].item())
print("int32", (torch.tensor(vals) * 4).tolist())

vals = []
for k in range(5):
    vals.append(flags[k].item())
print("bool", torch.tensor(vals).dtype, torch.tensor(vals).sum().item())

vals = []
for k in range(5):
    vals.append(z[k].item())
print("complex", torch.tensor(vals).dtype)

vals = []
for k in range(5):
    vals.append(d[k].item())
print("float64", (torch.tensor(vals) / 3).tolist())

out = torch.zeros(5, dtype=torch.uint8)
for k in range(5):
    out[k] = u[k] * 2
print("elem uint8", out.tolist())

out2 = torch.zeros(5, dtype=torch.int32)
for k in range(len(i32)):
    out2[k] = i32[k] * 3
print("elem int32", out2.tolist())

out3 = torch.empty(5, dtype=torch.float16)
for k in range(5):
    out3[k] = h[k] * 0.1 + 1
print("elem half", out3.tolist())

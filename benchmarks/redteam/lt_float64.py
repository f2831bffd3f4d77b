# corpus: runnable
import torch
torch.manual_seed(0)
x = torch.randn(6, 3, dtype=torch.float64)
sums = []
for row in x:
    sums.append(row.sum().item())
t = torch.tensor(sums)
print(t.dtype, t)
ids = torch.randint(0, 9, (6, 3), dtype=torch.int32)
best = []
for row in ids:
    best.append(row.max().item())
b = torch.tensor(best)
print(b.dtype, b)
flags = []
for row in x:
    flags.append((row > 0).all().item())
print(torch.tensor(flags).dtype)

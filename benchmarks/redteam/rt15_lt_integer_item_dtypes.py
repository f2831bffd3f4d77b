# corpus: runnable
# Lists of `.item()` values from small integer tensors (uint8 maxima, int16 sums, bool counts)
# turned into tensors and then used in integer arithmetic that overflows or divides: the dtype
# of the result decides what is printed.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
img = torch.randint(0, 256, (4, 8), dtype=torch.uint8)
peaks = []
for row in img:
    peaks.append(row.max().item())
p = torch.tensor(peaks)
print("peaks", p.dtype, (p * 2).tolist(), (p // 3).tolist())

small = torch.randint(-100, 100, (4, 5), dtype=torch.int16)
sums = []
for row in small:
    sums.append(row.sum().item())
s = torch.tensor(sums)
print("sums", s.dtype, (s * 400).tolist())

masks = torch.rand(4, 6) > 0.5
counts = []
for row in masks:
    counts.append(row.sum().item())
c = torch.tensor(counts)
print("counts", c.dtype, (c / 4).tolist(), (c // 4).tolist())

fl = torch.rand(4, 3, dtype=torch.float64)
means = []
for row in fl:
    means.append(row.mean().item())
m = torch.tensor(means)
print("means", m.dtype, repr(m.sum().item()))

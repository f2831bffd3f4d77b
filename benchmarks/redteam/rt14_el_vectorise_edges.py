# corpus: runnable
# Element loops whose vectorised form differs on edges: Python `max` / `min` with NaN (order
# matters), `math.sqrt` of a negative (ValueError caught), division by zero caught, Python ints
# that do not overflow where int32 / int64 tensors would, a target longer than the source, an
# empty source, `**` of a negative Python float (complex).
import math

import torch

torch.set_num_threads(1)
x = torch.tensor([1.0, float("nan"), -2.0, 3.0])
y = torch.zeros(4)
for i in range(len(x)):
    y[i] = max(x[i].item(), 0.0)
print("max nan first", y.tolist())
y2 = torch.zeros(4)
for i in range(len(x)):
    y2[i] = min(1.0, x[i].item())
print("min nan second", y2.tolist())

vals = []
try:
    s = torch.zeros(4)
    for i in range(4):
        s[i] = math.sqrt(x[i].item())
    vals = s.tolist()
except ValueError as e:
    vals = ["ValueError", str(e)]
print("sqrt", vals)

d = torch.tensor([1.0, 0.0, 2.0])
try:
    r = torch.zeros(3)
    for i in range(3):
        r[i] = 1.0 / d[i].item()
    print("recip", r.tolist())
except ZeroDivisionError:
    print("recip ZeroDivisionError")

ints = torch.tensor([2 ** 31 - 1, 7], dtype=torch.int32)
out = []
for i in range(len(ints)):
    out.append(int(ints[i]) * 4)
print("python ints", out)
sq = torch.zeros(2, dtype=torch.int64)
big = torch.tensor([2 ** 40, 3])
for i in range(2):
    sq[i] = big[i].item() * big[i].item() // (2 ** 30)
print("int64 big", sq.tolist())

src = torch.tensor([1.0, 2.0])
dst = torch.full((4,), -1.0)
for i in range(len(src)):
    dst[i] = src[i] * 2
print("longer target", dst.tolist())

empty = torch.zeros(0)
tgt = torch.full((3,), 9.0)
for i in range(len(empty)):
    tgt[i] = empty[i] + 1
print("empty source", tgt.tolist())

neg = torch.tensor([4.0, -4.0])
res = []
for v in neg.tolist():
    res.append(v ** 0.5)
print("pow", [str(v) for v in res])

h = torch.tensor([0.1, 0.2, 0.7], dtype=torch.float16)
acc = torch.zeros(3, dtype=torch.float16)
for i in range(3):
    acc[i] = h[i].item() * 3.3
print("half via python", acc.tolist())

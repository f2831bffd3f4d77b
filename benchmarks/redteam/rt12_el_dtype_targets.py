# corpus: runnable
# Element loops writing into a preallocated integer or boolean target (each store converts),
# into a target that is also the source (an in-place reversal), and reading Python scalars
# whose arithmetic differs from tensor arithmetic (floor division of negatives, int overflow).
import torch

torch.set_num_threads(1)
x = torch.tensor([1.7, -2.6, 3.5, -0.4])
n = x.shape[0]
out = torch.zeros(n, dtype=torch.long)
for i in range(n):
    out[i] = x[i] * 2
print("long target", out.dtype, out.tolist())

flags = torch.zeros(n, dtype=torch.bool)
for i in range(n):
    flags[i] = x[i] * 3
print("bool target", flags.tolist())

r = torch.arange(6.0)
m = r.shape[0]
for i in range(m // 2):
    r[i], r[m - 1 - i] = r[m - 1 - i], r[i]
print("reversed", r.tolist())

u = torch.tensor([200, 100, 50], dtype=torch.uint8)
v = torch.zeros(3, dtype=torch.uint8)
for i in range(3):
    v[i] = u[i] * 2
print("uint8", v.tolist())

w = torch.tensor([-7, 7, -3])
q = torch.zeros(3, dtype=torch.long)
for i in range(3):
    q[i] = w[i] // 2
print("floordiv", q.tolist())
